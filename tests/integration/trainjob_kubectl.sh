#!/usr/bin/env bash
# Kubeflow Trainer v2 on kubesim, driven with the real kubectl only (no trainctl): TrainJobs on
# Trainer v2.3.0's own default runtimes.
#  - torch-distributed: the JobSet, its Job <tj>-node-0, pods with hostnames <tj>-node-0-<i> and
#    subdomain <tj>, the PET_* env, the headless Service, the Complete condition with JobSet's
#    reason and message, jobsStatus, the ranks' logs;
#  - deepspeed-distributed: ssh nodes, then a launcher that reaches them through the hostfile
#    and completes the TrainJob;
#  - refusals: an unknown runtime and reserved PET_* env, in the webhook's words, nothing created;
#  - a rank that cannot meet rank 0 (a runtime whose trainer job is not named node) waits as
#    torchrun waits, then fails, and the TrainJob fails.
# Exit 77 (skipped) without kubectl, the schemas or the runtimes (CI=true: fails).
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
source "$(dirname "$0")/trainjobs.bash"
command -v kubectl >/dev/null || skip_or_fail "kubectl not found"
require_trainer_runtimes
start_kubesim --runtimes "$RUNTIMES" --rendezvous-timeout 60s
k() { kubectl --kubeconfig "$KCFG" "$@"; }

# ---- torch-distributed, two nodes ----
cat >"$WORK/mnist.yaml" <<'YAML'
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: mnist
  annotations: {kubesim.trainctl.io/duration: 30s}
spec:
  runtimeRef: {name: torch-distributed}
  trainer:
    numNodes: 2
    command: [torchrun, /workspace/mnist.py, --epochs, "2"]
    resourcesPerNode: {limits: {nvidia.com/gpu: 1}}
YAML
OUT=$(k apply -f "$WORK/mnist.yaml" 2>&1) || fail "apply: $OUT"
OUT=$(k wait --for=condition=Complete trainjob/mnist --timeout=90s 2>&1) || fail "mnist did not complete: $OUT"
OUT=$(k get trainjob mnist -o jsonpath='{range .status.conditions[*]}{.type}={.status}/{.reason}/{.message};{end}')
expect_output "Complete condition" "Complete=True/AllJobsCompleted/jobset completed successfully;"
OUT=$(k get trainjob mnist -o jsonpath='{.status.jobsStatus[0].name} {.status.jobsStatus[0].succeeded}')
[[ "$OUT" == "node 1" ]] || fail "jobsStatus: $OUT"
OUT=$(k get jobset mnist -o jsonpath='{.status.terminalState} {.metadata.ownerReferences[0].kind}/{.metadata.ownerReferences[0].name}')
[[ "$OUT" == "Completed TrainJob/mnist" ]] || fail "JobSet: $OUT"
OUT=$(k get jobs -l jobset.sigs.k8s.io/jobset-name=mnist -o name)
[[ "$OUT" == "job.batch/mnist-node-0" ]] || fail "Jobs: $OUT"
OUT=$(k get pods -l jobset.sigs.k8s.io/jobset-name=mnist --sort-by=.spec.hostname \
  -o jsonpath='{range .items[*]}{.spec.hostname}.{.spec.subdomain} {.metadata.labels.batch\.kubernetes\.io/job-completion-index};{end}')
[[ "$OUT" == "mnist-node-0-0.mnist 0;mnist-node-0-1.mnist 1;" ]] || fail "pods: $OUT"
POD0=$(k get pods -l jobset.sigs.k8s.io/jobset-name=mnist,batch.kubernetes.io/job-completion-index=0 -o name)
OUT=$(k get "$POD0" -o jsonpath='{range .spec.containers[0].env[*]}{.name}={.value}{.valueFrom.fieldRef.fieldPath};{end}')
expect_output "PET env" "PET_NNODES=2;PET_NPROC_PER_NODE=auto;PET_NODE_RANK=metadata.annotations['batch.kubernetes.io/job-completion-index'];PET_MASTER_ADDR=mnist-node-0-0.mnist;PET_MASTER_PORT=29500;"
OUT=$(k get service mnist -o jsonpath='{.spec.clusterIP} {.spec.selector} {.spec.publishNotReadyAddresses}')
[[ "$OUT" == 'None {"jobset.sigs.k8s.io/jobset-name":"mnist"} true' ]] || fail "Service: $OUT"
POD1=$(k get pods -l jobset.sigs.k8s.io/jobset-name=mnist,batch.kubernetes.io/job-completion-index=1 -o name)
OUT=$(k logs "$POD1" 2>&1)
expect_output "rank 1's log" "WORLD_SIZE: 2, CURRENT_RANK: 1"
expect_output "rank 1 trained" "accuracy="
OUT=$(k get configmap mnist-runtime-snapshot -o jsonpath='{.data.runtime}')
expect_output "runtime snapshot" "name: torch-distributed"

# ---- deepspeed-distributed: a launcher and its ssh nodes ----
deepspeed_trainjob ds 20s >"$WORK/ds.yaml"
OUT=$(k apply -f "$WORK/ds.yaml" 2>&1) || fail "apply ds: $OUT"
OUT=$(k wait --for=condition=Complete trainjob/ds --timeout=90s 2>&1) || fail "ds did not complete: $(k get pods -o wide 2>&1)"
OUT=$(k get configmap ds-mpi-hostfile -o jsonpath='{.data.hostfile}')
[[ "$OUT" == $'ds-node-0-0.ds slots=1\nds-node-0-1.ds slots=1\nds-launcher-0-0.ds slots=1' ]] || fail "hostfile: $OUT"
OUT=$(k get secret ds-mpi-ssh-auth -o jsonpath='{.type} {.immutable}')
[[ "$OUT" == "kubernetes.io/ssh-auth true" ]] || fail "ssh Secret: $OUT"
LAUNCHER=$(k get pods -l jobset.sigs.k8s.io/replicatedjob-name=launcher,jobset.sigs.k8s.io/jobset-name=ds -o name)
OUT=$(k get "$LAUNCHER" -o jsonpath='{range .spec.containers[0].env[*]}{.name}={.value};{end}')
expect_output "launcher env" "OMPI_MCA_orte_default_hostfile=/etc/mpi/hostfile;"
OUT=$(k logs "$LAUNCHER")
expect_output "launcher trained" "accuracy="

# ---- refusals: nothing is created ----
cat >"$WORK/unknown.yaml" <<'YAML'
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: unknown}
spec:
  runtimeRef: {name: torch-nightly}
YAML
OUT=$(k apply -f "$WORK/unknown.yaml" 2>&1) && fail "an unknown runtime was accepted"
expect_output "unknown runtime" 'Error from server (Forbidden): error when creating'
expect_output "unknown runtime" 'admission webhook "validator.trainjob.trainer.kubeflow.org" denied the request: spec.RuntimeRef: Invalid value: {"name":"torch-nightly","apiGroup":"trainer.kubeflow.org","kind":"ClusterTrainingRuntime"}: ClusterTrainingRuntime.trainer.kubeflow.org "torch-nightly" not found: specified clusterTrainingRuntime must be created before the TrainJob is created'
cat >"$WORK/pet.yaml" <<'YAML'
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: pet}
spec:
  runtimeRef: {name: torch-distributed}
  trainer:
    env: [{name: PET_NNODES, value: "8"}]
YAML
OUT=$(k apply -f "$WORK/pet.yaml" 2>&1) && fail "a reserved env was accepted"
expect_output "reserved env" 'spec.trainer.env: Invalid value: [{"name":"PET_NNODES","value":"8"}]: must not have reserved envs, invalid envs configured: [PET_NNODES]'
OUT=$(k get trainjob unknown pet 2>&1) && fail "a refused TrainJob exists: $OUT"

# ---- a rank that cannot meet rank 0 ----
k get clustertrainingruntime torch-distributed -o json |
  python3 -c 'import json,sys; r=json.load(sys.stdin); r["metadata"]={"name":"torch-renamed"}
r["spec"]["template"]["spec"]["replicatedJobs"][0]["name"]="trainer"; print(json.dumps(r))' >"$WORK/renamed.json"
OUT=$(k apply -f "$WORK/renamed.json" 2>&1) || fail "apply runtime: $OUT"
cat >"$WORK/lost.yaml" <<'YAML'
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: lost}
spec:
  runtimeRef: {name: torch-renamed}
  trainer:
    numNodes: 2
    command: [torchrun, /workspace/mnist.py]
YAML
OUT=$(k apply -f "$WORK/lost.yaml" 2>&1) || fail "apply lost: $OUT"
deadline=$((SECONDS + 60))
until OUT=$(k logs -l jobset.sigs.k8s.io/jobset-name=lost --prefix 2>&1) && grep -q "cannot be retrieved" <<<"$OUT"; do
  ((SECONDS < deadline)) || fail "lost's ranks do not wait for rank 0: $OUT"
  sleep 0.2
done
expect_output "waits for rank 0" "The IPv6 network addresses of (lost-node-0-0.lost, 29500) cannot be retrieved"
grep -q "Train Epoch" <<<"$OUT" && fail "a rank trained without rank 0: $OUT"
OUT=$(k wait --for=condition=Failed trainjob/lost --timeout=240s 2>&1) || fail "lost did not fail: $OUT"
OUT=$(k get trainjob lost -o jsonpath='{.status.conditions[?(@.type=="Failed")].reason}')
[[ "$OUT" == "FailedJobs" ]] || fail "lost's Failed reason: $OUT"
echo "ok"
