#!/usr/bin/env bash
# Kubeflow Trainer v2 on a kubesim cluster that has only Trainer, JobSet, Kueue and Volcano
# (--operators trainer,jobset,kueue,volcano), driven with the real kubectl:
#  - the cluster serves no kubeflow.org PyTorchJob/TFJob/MPIJob;
#  - suspend and resume: spec.suspend reaches the JobSet and its Jobs, the pods go and come
#    back, the Suspended condition with Trainer's reasons and messages;
#  - Kueue: a TrainJob labelled kueue.x-k8s.io/queue-name is suspended by Kueue's webhook,
#    admitted within its ClusterQueue's quota (the flavor's nodeLabels in Kueue's runtimePatch,
#    on the pods), a second one waits suspended until the first is deleted.
# Exit 77 (skipped) without kubectl, the schemas or the runtimes (CI=true: fails).
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
command -v kubectl >/dev/null || skip_or_fail "kubectl not found"
require_trainer_runtimes
[[ -n "$SCHEMAS" ]] || skip_or_fail "Kueue needs the schemas"
start_kubesim --runtimes "$RUNTIMES" --operators trainer,jobset,kueue,volcano
k() { kubectl --kubeconfig "$KCFG" "$@"; }
# wait_for DESCRIPTION COMMAND...: retries COMMAND (its output in OUT) until it succeeds.
wait_for() {
  local what=$1 deadline=$((SECONDS + 60))
  shift
  until OUT=$("$@" 2>&1); do
    ((SECONDS < deadline)) || fail "$what: $OUT"
    sleep 0.2
  done
}
pods_of() { k get pods -l "jobset.sigs.k8s.io/jobset-name=$1" -o name | wc -l; }

# ---- only Trainer's kinds ----
OUT=$(k api-resources --api-group=kubeflow.org -o name 2>&1)
[[ -z "$OUT" ]] || fail "kubeflow.org is served: $OUT"
OUT=$(k api-resources --api-group=trainer.kubeflow.org -o name 2>&1)
expect_output "trainer resources" "trainjobs.trainer.kubeflow.org"
expect_output "trainer resources" "clustertrainingruntimes.trainer.kubeflow.org"

# ---- suspend and resume ----
cat >"$WORK/sr.yaml" <<'YAML'
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: sr
  annotations: {kubesim.trainctl.io/outcome: run-forever}
spec:
  runtimeRef: {name: torch-distributed}
  trainer: {numNodes: 2, command: [torchrun, /workspace/mnist.py]}
YAML
k apply -f "$WORK/sr.yaml" >/dev/null
wait_for "sr's pods run" bash -c "[[ \$(kubectl --kubeconfig '$KCFG' get pods -l jobset.sigs.k8s.io/jobset-name=sr --field-selector=status.phase=Running -o name | wc -l) == 2 ]]"
k patch trainjob sr --type=merge -p '{"spec":{"suspend":true}}' >/dev/null
OUT=$(k wait --for=condition=Suspended trainjob/sr --timeout=60s 2>&1) || fail "sr not suspended: $OUT"
OUT=$(k get trainjob sr -o jsonpath='{.status.conditions[?(@.type=="Suspended")].reason}/{.status.conditions[?(@.type=="Suspended")].message}')
[[ "$OUT" == "Suspended/TrainJob is suspended" ]] || fail "Suspended condition: $OUT"
wait_for "the JobSet and its Job suspended" bash -c "[[ \$(kubectl --kubeconfig '$KCFG' get jobset sr -o jsonpath='{.spec.suspend}') == true && \$(kubectl --kubeconfig '$KCFG' get job sr-node-0 -o jsonpath='{.spec.suspend}') == true ]]"
OUT=$(k get trainjob sr 2>&1)
expect_output "State column" "Suspended"
wait_for "sr's pods go" bash -c "[[ \$(kubectl --kubeconfig '$KCFG' get pods -l jobset.sigs.k8s.io/jobset-name=sr -o name | wc -l) == 0 ]]"
k patch trainjob sr --type=merge -p '{"spec":{"suspend":false}}' >/dev/null
wait_for "sr resumed" bash -c "[[ \$(kubectl --kubeconfig '$KCFG' get trainjob sr -o jsonpath='{.status.conditions[?(@.type==\"Suspended\")].reason}') == Resumed ]]"
OUT=$(k get trainjob sr -o jsonpath='{.status.conditions[?(@.type=="Suspended")].status}/{.status.conditions[?(@.type=="Suspended")].message}')
[[ "$OUT" == "False/TrainJob is resumed" ]] || fail "resumed condition: $OUT"
wait_for "sr's pods back" bash -c "[[ \$(kubectl --kubeconfig '$KCFG' get pods -l jobset.sigs.k8s.io/jobset-name=sr -o name | wc -l) == 2 ]]"
k delete trainjob sr >/dev/null

# ---- Kueue: 8 GPUs of quota, two TrainJobs of 8 ----
cat >"$WORK/kueue.yaml" <<'YAML'
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: a100}
spec:
  nodeLabels: {kubernetes.io/hostname: gpu-a}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: research}
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [nvidia.com/gpu]
    flavors:
    - name: a100
      resources: [{name: nvidia.com/gpu, nominalQuota: 8}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: team, namespace: default}
spec: {clusterQueue: research}
YAML
k apply -f "$WORK/kueue.yaml" >/dev/null
# The flavor's node label must exist for the pods to schedule.
k label node gpu-a kubernetes.io/hostname=gpu-a --overwrite >/dev/null
for name in first second; do
  cat >"$WORK/$name.yaml" <<YAML
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: $name
  labels: {kueue.x-k8s.io/queue-name: team}
  annotations: {kubesim.trainctl.io/outcome: run-forever}
spec:
  runtimeRef: {name: torch-distributed}
  trainer:
    numNodes: 2
    command: [torchrun, /workspace/mnist.py]
    resourcesPerNode: {limits: {nvidia.com/gpu: 4}}
YAML
done
k apply -f "$WORK/first.yaml" >/dev/null
wait_for "first admitted" bash -c "[[ \$(kubectl --kubeconfig '$KCFG' get trainjob first -o jsonpath='{.spec.suspend}') == false ]]"
OUT=$(k get trainjob first -o jsonpath='{.spec.runtimePatches[0].manager} {.spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[0].template.spec.template.spec.nodeSelector}')
[[ "$OUT" == 'kueue.x-k8s.io/manager {"kubernetes.io/hostname":"gpu-a"}' ]] || fail "Kueue's patch: $OUT"
OUT=$(k get workloads -o jsonpath='{range .items[*]}{.metadata.name} {.spec.podSets[0].name}x{.spec.podSets[0].count};{end}')
[[ "$OUT" == trainjob-first-?????\ nodex2\; ]] || fail "Workload: $OUT"
wait_for "first's pods on gpu-a" bash -c "[[ \$(kubectl --kubeconfig '$KCFG' get pods -l jobset.sigs.k8s.io/jobset-name=first,kueue.x-k8s.io/podset=node --field-selector=spec.nodeName=gpu-a -o name | wc -l) == 2 ]]"
k apply -f "$WORK/second.yaml" >/dev/null
wait_for "second's Workload pending" bash -c "kubectl --kubeconfig '$KCFG' get workloads -o jsonpath='{.items[*].status.conditions[*].reason}' | grep -q Pending"
OUT=$(k get trainjob second -o jsonpath='{.spec.suspend} {.status.conditions[0].reason}')
[[ "$OUT" == "true Suspended" ]] || fail "second not held: $OUT"
[[ $(pods_of second) == 0 ]] || fail "second has pods while suspended"
k delete trainjob first >/dev/null
wait_for "second admitted" bash -c "[[ \$(kubectl --kubeconfig '$KCFG' get trainjob second -o jsonpath='{.spec.suspend}') == false ]]"
wait_for "second's pods" bash -c "[[ \$(kubectl --kubeconfig '$KCFG' get pods -l jobset.sigs.k8s.io/jobset-name=second -o name | wc -l) == 2 ]]"
echo "ok"
