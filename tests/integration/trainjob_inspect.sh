#!/usr/bin/env bash
# TrainJobs made with the real kubectl on a cluster with only Kubeflow Trainer v2 and JobSet
# (--operators trainer,jobset, Trainer v2.3.0's own runtimes), inspected with trainctl:
#  - torch-distributed, 2 nodes: list (--type trainjob/tj, -o wide PROGRESS), get (chief
#    node-0, instances, progress from status.trainerStatus), logs (chief, -i 1, --all), top
#    job (with GPU metrics from Prometheus), wait, delete (kubectl then finds no JobSet, Job,
#    pod or Service of it);
#  - more GPUs per node than any node has: get says why it is pending;
#  - a node that fails: wait exits 5 naming the pod and its exit code;
#  - a rank that cannot meet rank 0 (a runtime whose trainer job is not named node): its
#    ranks' logs say so, and the failure names the pod;
#  - deepspeed-distributed: the launcher is the chief, logs -i launcher-0.
# Exit 77 (skipped) without kubectl, the schemas or the runtimes (CI=true: fails).
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
source "$(dirname "$0")/trainjobs.bash"
command -v kubectl >/dev/null || skip_or_fail "kubectl not found"
require_trainer_runtimes
start_kubesim --operators trainer,jobset --runtimes "$RUNTIMES" --trainer-feature-gates TrainJobStatus=true \
  --rendezvous-timeout 60s --prometheus dcgm
k() { kubectl --kubeconfig "$KCFG" "$@"; }

# trainjob NAME RUNTIME NODES GPUS DURATION [OUTCOME]: kubectl creates a TrainJob.
trainjob() {
  local outcome=${6:+", kubesim.trainctl.io/outcome: $6"}
  OUT=$(k apply -f - 2>&1 <<YAML
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: $1
  annotations: {kubesim.trainctl.io/duration: $5$outcome}
spec:
  runtimeRef: {name: $2}
  trainer:
    numNodes: $3
    command: [torchrun, /workspace/mnist.py, --epochs, "2"]
    resourcesPerNode: {limits: {nvidia.com/gpu: $4}}
YAML
  ) || fail "kubectl apply $1: $OUT"
}

# until_out TEXT CMD...: runs CMD until its output holds TEXT (60 s at most).
until_out() {
  local want=$1 deadline=$((SECONDS + 60))
  shift
  until OUT=$("$@" 2>&1) && grep -qF -- "$want" <<<"$OUT"; do
    ((SECONDS < deadline)) || fail "$* never showed \"$want\": $OUT"
    sleep 0.3
  done
}

# ---- torch-distributed, two nodes of one GPU ----
trainjob mnist torch-distributed 2 1 120s
until_out "mnist" tc list
expect_output "list" "TRAINJOB"
OUT=$(tc wait mnist --for running --timeout 60s 2>&1) || fail "wait --for running: $OUT"
# (the TrainJob reports an active Job before its second pod runs; list reads the pods too)
for _ in $(seq 100); do
  OUT=$(tc list --type tj)
  grep -Eq '^mnist +RUNNING +TRAINJOB +[0-9]+[sm] +2 +2 +10\.0\.0\.1[12]$' <<<"$OUT" && break
  sleep 0.3
done
grep -Eq '^mnist +RUNNING +TRAINJOB +[0-9]+[sm] +2 +2 +10\.0\.0\.1[12]$' <<<"$OUT" || fail "list --type tj: $OUT"
OUT=$(tc list --type pytorchjob)
grep -q mnist <<<"$OUT" && fail "list --type pytorchjob shows the TrainJob: $OUT"
OUT=$(tc get mnist)
expect_output "get trainer" "Trainer:     TRAINJOB"
JSON=$(tc get mnist -o json)
python3 - "$JSON" <<'PY' || fail "get -o json: $JSON"
import json, sys
j = json.loads(sys.argv[1])
assert j["kind"] == "TrainJob" and j["apiVersion"] == "trainer.kubeflow.org/v1alpha1", j
assert j["trainer"] == "trainjob" and j["status"] == "RUNNING" and j["requestGPUs"] == 2, j
assert j["chiefName"].startswith("mnist-node-0-0-"), j["chiefName"]
names = sorted(i["name"] for i in j["instances"])
assert len(names) == 2 and names[1].startswith("mnist-node-0-1-"), names
PY
# The pod of rank 0, as kubectl names it, is get's chief.
POD0=$(k get pods -l jobset.sigs.k8s.io/jobset-name=mnist,batch.kubernetes.io/job-completion-index=0 -o name)
grep -q "\"chiefName\": \"${POD0#pod/}\"" <<<"$JSON" || fail "chief is not $POD0: $JSON"
# Progress: rank 0 reports status.trainerStatus (TrainJobStatus gate); get, list -o wide, -o json.
until_out "Progress:" tc get mnist
expect_output "get progress" "Metrics:     loss="
PCT=$(k get trainjob mnist -o jsonpath='{.status.trainerStatus.progressPercentage}')
[[ -n "$PCT" ]] || fail "kubectl sees no trainerStatus"
OUT=$(tc list -o wide)
grep -Eq '^ *NAME +STATUS .* PROGRESS +REASON$' <<<"$OUT" || fail "list -o wide has no PROGRESS column: $OUT"
grep -Eq '^mnist +.* [0-9]+%' <<<"$OUT" || fail "list -o wide shows no progress: $OUT"
OUT=$(tc get mnist -o json)
python3 -c 'import json,sys; p=json.loads(sys.argv[1])["progress"]; assert 0 <= p["percent"] <= 100 and "loss" in p["metrics"] and p["lastUpdated"], p' "$OUT" ||
  fail "get -o json progress: $OUT"
# logs: the chief's (rank 0), -i 1, --all with each line's replica.
OUT=$(tc logs mnist 2>&1)
expect_output "chief log" "CURRENT_RANK: 0"
OUT=$(tc logs mnist -i 1 2>&1)
expect_output "rank 1 log" "CURRENT_RANK: 1"
OUT=$(tc logs mnist --all 2>&1)
expect_output "logs --all node-0" "node-0"
expect_output "logs --all node-1" "node-1"
# top job: the job among the others, and its instances.
OUT=$(tc top job)
grep -Eq '^mnist +RUNNING +TRAINJOB' <<<"$OUT" || fail "top job: $OUT"
OUT=$(tc top job mnist)
expect_output "top job mnist" "${POD0#pod/}"
# GPU metrics (kubesim's dcgm-exporter series through Prometheus) by pod, as for every kind: a
# busy duty cycle on each node's GPU once both pods were scraped.
gpu_row='^mnist-node-0-[01]-[a-z0-9]+ +Running +1 +[^ ]+ +[0-7] +(7[0-9]|8[0-9]|9[0-9])\.[0-9]% '
deadline=$((SECONDS + 60))
until OUT=$(tc top job mnist 2>&1) && [[ $(grep -cE "$gpu_row" <<<"$OUT") -eq 2 ]]; do
  ((SECONDS < deadline)) || fail "top job mnist lacks its two GPU rows: $OUT"
  sleep 0.3
done
# wait until it ends: SUCCEEDED, exit 0; kubectl agrees.
OUT=$(tc wait mnist --for finished --timeout 120s 2>&1) || fail "wait: $OUT"
expect_output "wait" "SUCCEEDED"
OUT=$(k get trainjob mnist -o jsonpath='{.status.conditions[?(@.type=="Complete")].status}')
[[ "$OUT" == "True" ]] || fail "kubectl: mnist not Complete: $OUT"
OUT=$(tc get mnist)
expect_output "get succeeded" "Status:      SUCCEEDED"
# delete leaves nothing: the JobSet, Jobs, pods and Service go with the TrainJob.
OUT=$(tc delete mnist 2>&1) || fail "delete: $OUT"
deadline=$((SECONDS + 60))
until [[ -z "$(k get trainjob,jobset,jobs,pods,services,configmaps -o name 2>/dev/null | grep mnist)" ]]; do
  ((SECONDS < deadline)) || fail "left behind: $(k get trainjob,jobset,jobs,pods,services,configmaps -o name | grep mnist)"
  sleep 0.3
done

# ---- more GPUs per node than any node has: pending, and why ----
trainjob big torch-distributed 2 16 30s
until_out "Insufficient nvidia.com/gpu" tc get big  # the scheduler's event, which may come after the fit check's line
expect_output "big pending" "Status:      PENDING"
expect_output "big why" "Insufficient nvidia.com/gpu"
OUT=$(tc delete big 2>&1) || fail "delete big: $OUT"

# ---- a node that fails: wait exits 5 and names the pod and its exit code ----
trainjob broken torch-distributed 2 1 10s fail
set +e
OUT=$(tc wait broken --for finished --timeout 120s 2>&1)
rc=$?
set -e
[[ $rc == 5 ]] || fail "wait broken: exit $rc: $OUT"
grep -Eq '^Failed: node-[01] exited [1-9][0-9]* \(Error\)' <<<"$OUT" || fail "failure names no node and exit code: $OUT"
expect_output "failure pod" "of broken-node-0-"
expect_output "failure condition" "jobset failed due to one or more job failures (first failed job: broken-node-0)"
OUT=$(tc get broken)
expect_output "get failed" "Status:      FAILED"
OUT=$(tc list -o wide)
grep -Eq '^broken +FAILED +TRAINJOB .* FailedJobs$' <<<"$OUT" || fail "list -o wide reason: $OUT"

# ---- a rank that cannot meet rank 0 ----
k get clustertrainingruntime torch-distributed -o json |
  python3 -c 'import json,sys; r=json.load(sys.stdin); r["metadata"]={"name":"torch-renamed"}
r["spec"]["template"]["spec"]["replicatedJobs"][0]["name"]="trainer"; print(json.dumps(r))' >"$WORK/renamed.json"
OUT=$(k apply -f "$WORK/renamed.json" 2>&1) || fail "apply runtime: $OUT"
trainjob lost torch-renamed 2 1 30s
until_out "cannot be retrieved" tc logs lost -i 1
expect_output "rank 1 waits for rank 0" "(lost-node-0-0.lost, 29500) cannot be retrieved"
set +e
OUT=$(tc wait lost --for finished --timeout 240s 2>&1)
rc=$?
set -e
[[ $rc == 5 ]] || fail "wait lost: exit $rc: $OUT"
expect_output "lost failure" "lost-trainer-0-"

# ---- deepspeed-distributed: the launcher is the chief ----
OUT=$(deepspeed_trainjob ds 30s | k apply -f - 2>&1) || fail "apply ds: $OUT"
until_out "launcher" tc get ds -o json
LAUNCHER=$(k get pods -l jobset.sigs.k8s.io/jobset-name=ds,jobset.sigs.k8s.io/replicatedjob-name=launcher -o name)
until_out "\"chiefName\": \"${LAUNCHER#pod/}\"" tc get ds -o json
OUT=$(tc wait ds --for finished --timeout 120s 2>&1) || fail "wait ds: $OUT"
OUT=$(tc logs ds -i launcher-0 2>&1)
expect_output "launcher log" "accuracy="
echo "ok"
