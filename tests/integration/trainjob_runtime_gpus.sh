#!/usr/bin/env bash
# The GPUs a TrainJob asks for through its runtime, on a cluster with only Kubeflow Trainer v2
# and JobSet: a TrainJob whose trainer.resourcesPerNode names no GPU runs with its runtime's
# node container GPUs (Trainer v2.3.0 merges resourcesPerNode into them key by key), so list,
# get and top job show the runtime's GPUs times the nodes before the job has pods (suspended
# here); kubectl reads the runtime and the TrainJob the number comes from. A job that names its
# own GPUs keeps them.
# Exit 77 (skipped) without kubectl or the runtimes (CI=true: fails).
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
source "$(dirname "$0")/trainjobs.bash"
command -v kubectl >/dev/null || skip_or_fail "kubectl not found"
require_trainer_runtimes
start_kubesim --operators trainer,jobset --runtimes "$RUNTIMES"
k() { kubectl --kubeconfig "$KCFG" "$@"; }

# suspended_trainjob NAME NODES [RESOURCES]: a suspended TrainJob on the TrainingRuntime two-gpus.
suspended_trainjob() {
  cat <<YAML
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: $1}
spec:
  runtimeRef: {name: two-gpus, kind: TrainingRuntime}
  suspend: true
  trainer: {numNodes: $2, command: [torchrun, /workspace/tune.py]${3:+, resourcesPerNode: $3}}
YAML
}
OUT=$({ torch_runtime TrainingRuntime two-gpus "{limits: {nvidia.com/gpu: 2}}"; echo ---; suspended_trainjob tune 3; } |
  k apply -f - 2>&1) || fail "apply two-gpus: $OUT"
# What the runtime's node asks for times the nodes, as kubectl reads them; no pods yet.
PER_NODE=$(k get trainingruntime two-gpus -o jsonpath='{.spec.template.spec.replicatedJobs[0].template.spec.template.spec.containers[0].resources.limits.nvidia\.com/gpu}')
NODES=$(k get trainjob tune -o jsonpath='{.spec.trainer.numNodes}')
WANT=$((PER_NODE * NODES))
[[ $WANT == 6 && -z "$(k get pods -l jobset.sigs.k8s.io/jobset-name=tune -o name)" ]] || fail "two-gpus: $PER_NODE x $NODES, pods"
OUT=$(tc list)
grep -Eq "^tune +SUSPENDED +TRAINJOB +[0-9]+[sm] +$WANT +N/A " <<<"$OUT" || fail "list: GPUs from the runtime: $OUT"
OUT=$(tc get tune -o json)
python3 -c 'import json,sys; j=json.loads(sys.argv[1]); assert j["requestGPUs"] == int(sys.argv[2]), j["requestGPUs"]' "$OUT" "$WANT" ||
  fail "get: GPUs from the runtime: $OUT"
OUT=$(tc top job)
grep -Eq "^tune +SUSPENDED +TRAINJOB +[0-9]+[sm] +$WANT +0 " <<<"$OUT" || fail "top job: GPUs from the runtime: $OUT"
# One that names its own GPUs on the same runtime keeps them (1 x 2 nodes).
OUT=$(suspended_trainjob own 2 "{limits: {nvidia.com/gpu: 1}}" | k apply -f - 2>&1) || fail "apply own: $OUT"
OUT=$(tc list)
grep -Eq "^own +SUSPENDED +TRAINJOB +[0-9]+[sm] +2 +N/A " <<<"$OUT" || fail "list: a job's own GPUs: $OUT"
echo "ok"
