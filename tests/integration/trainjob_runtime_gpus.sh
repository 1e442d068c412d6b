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
command -v kubectl >/dev/null || skip_or_fail "kubectl not found"
RUNTIMES=$(trainer_runtimes_dir)
[[ -n "$RUNTIMES" ]] || skip_or_fail "no Kubeflow Trainer runtimes (../shared/trainer-runtimes, or run scripts/fetch-schemas.sh)"
start_kubesim --operators trainer,jobset --runtimes "$RUNTIMES"
k() { kubectl --kubeconfig "$KCFG" "$@"; }

OUT=$(k apply -f - 2>&1 <<'YAML'
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainingRuntime
metadata: {name: two-gpus, labels: {trainer.kubeflow.org/framework: torch}}
spec:
  mlPolicy: {numNodes: 1, torch: {}}
  template:
    spec:
      replicatedJobs:
      - name: node
        template:
          metadata: {labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}}
          spec:
            template:
              spec:
                containers:
                - {name: node, image: pytorch/pytorch, resources: {limits: {nvidia.com/gpu: 2}}}
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: tune}
spec:
  runtimeRef: {name: two-gpus, kind: TrainingRuntime}
  suspend: true
  trainer: {numNodes: 3, command: [torchrun, /workspace/tune.py]}
YAML
) || fail "apply two-gpus: $OUT"
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
OUT=$(k apply -f - 2>&1 <<'YAML'
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: own}
spec:
  runtimeRef: {name: two-gpus, kind: TrainingRuntime}
  suspend: true
  trainer: {numNodes: 2, resourcesPerNode: {limits: {nvidia.com/gpu: 1}}}
YAML
) || fail "apply own: $OUT"
OUT=$(tc list)
grep -Eq "^own +SUSPENDED +TRAINJOB +[0-9]+[sm] +2 +N/A " <<<"$OUT" || fail "list: a job's own GPUs: $OUT"
echo "ok"
