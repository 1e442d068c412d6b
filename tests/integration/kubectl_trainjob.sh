#!/usr/bin/env bash
# Independent clients read every TrainJob, JobSet and runtime kubesim serves: each real kubectl
# found (kubectl, kubectl.1.27 ... kubectl.1.33) gets them as tables with the CRDs' printer
# columns (TrainJob: STATE, AGE; JobSet: TERMINALSTATE, RESTARTS, COMPLETED, SUSPENDED, AGE),
# as YAML, by jsonpath and through a watch; the official Python client (python3-kubernetes)
# lists, gets and watches them and deserialises the JobSet's Jobs, pods and Service into its
# typed models. Exit 77 (skipped) without kubectl, the schemas or the runtimes (CI=true: fails).
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
KUBECTL_PATH=$(command -v kubectl || true)
[[ -n "$KUBECTL_PATH" ]] || skip_or_fail "kubectl not found"
KDIR=$(dirname "$(readlink -f "$KUBECTL_PATH")")
VERSIONS=()
for v in kubectl kubectl.1.27 kubectl.1.28 kubectl.1.29 kubectl.1.30 kubectl.1.31 kubectl.1.32 kubectl.1.33; do
  [[ -x "$KDIR/$v" ]] && VERSIONS+=("$v")
done
require_trainer_runtimes
PY=/usr/bin/python3
[[ -x "$PY" ]] && "$PY" -c "import kubernetes" 2>/dev/null || skip_or_fail "python3-kubernetes is not installed"
start_kubesim --runtimes "$RUNTIMES"
export KUBECONFIG="$KCFG"
squeeze() { tr -s ' \t' ' ' <<<"$1"; }

cat >"$WORK/jobs.yaml" <<'YAML'
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: done
  annotations: {kubesim.trainctl.io/duration: 10s}
spec:
  runtimeRef: {name: torch-distributed}
  trainer: {numNodes: 2, command: [torchrun, /workspace/mnist.py]}
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: running
  annotations: {kubesim.trainctl.io/outcome: run-forever}
spec:
  runtimeRef: {name: torch-distributed}
  trainer: {numNodes: 1, command: [torchrun, /workspace/mnist.py]}
YAML
kubectl apply -f "$WORK/jobs.yaml" >/dev/null
OUT=$(kubectl wait --for=condition=Complete trainjob/done --timeout=60s 2>&1) || fail "done did not complete: $OUT"
OUT=$(kubectl wait --for=jsonpath='{.status.jobsStatus[0].active}'=1 trainjob/running --timeout=60s 2>&1) ||
  fail "running did not start: $OUT"

for v in "${VERSIONS[@]}"; do
  K="$KDIR/$v"
  OUT=$(squeeze "$("$K" get trainjobs 2>&1)")
  expect_output "$v trainjob header" "NAME STATE AGE"
  expect_output "$v done's State (the last condition)" $'\ndone Complete '
  # A TrainJob that never had a condition: the State cell is empty.
  grep -qE $'^running [0-9][0-9a-z]*$' <<<"$OUT" || fail "$v running's row: $OUT"
  OUT=$(squeeze "$("$K" get jobsets 2>&1)")
  expect_output "$v jobset header" "NAME TERMINALSTATE RESTARTS COMPLETED SUSPENDED AGE"
  expect_output "$v done's JobSet" $'\ndone Completed 0 True false '
  grep -qE $'^running 0 false [0-9][0-9a-z]*$' <<<"$OUT" || fail "$v running's JobSet row: $OUT"
  OUT=$(squeeze "$("$K" get clustertrainingruntimes 2>&1)")
  expect_output "$v runtimes header" "NAME AGE"
  for r in deepspeed-distributed jax-distributed mlx-distributed torch-distributed xgboost-distributed; do
    expect_output "$v runtime $r" $'\n'"$r "
  done
  OUT=$("$K" get trainjob done -o yaml 2>&1)
  expect_output "$v -o yaml kind" "kind: TrainJob"
  expect_output "$v -o yaml runtimeRef" "kind: ClusterTrainingRuntime"
  expect_output "$v -o yaml condition" "reason: AllJobsCompleted"
  OUT=$("$K" get jobset done -o yaml 2>&1)
  expect_output "$v jobset -o yaml" "terminalState: Completed"
  expect_output "$v jobset -o yaml" "trainer.kubeflow.org/trainjob-ancestor-step: trainer"
  OUT=$("$K" get clustertrainingruntime torch-distributed -o jsonpath='{.metadata.labels.trainer\.kubeflow\.org/framework}')
  [[ "$OUT" == torch ]] || fail "$v runtime label: $OUT"
  OUT=$("$K" get trainjob running -o wide 2>&1) || fail "$v -o wide: $OUT"
  OUT=$("$K" api-resources --api-group=jobset.x-k8s.io 2>&1)
  expect_output "$v api-resources" "jobsets"
done

# A watch sees a TrainJob created after it began, with its State once it has one.
"$KDIR/kubectl" get trainjobs --watch --request-timeout=20s >"$WORK/watch.out" 2>&1 &
WATCH=$!
sleep 1
sed 's/name: done/name: later/' "$WORK/jobs.yaml" | kubectl apply -f - >/dev/null
OUT=$(kubectl wait --for=condition=Complete trainjob/later --timeout=60s 2>&1) || fail "later did not complete: $OUT"
sleep 1
kill "$WATCH" 2>/dev/null || true
wait "$WATCH" 2>/dev/null || true
OUT=$(squeeze "$(cat "$WORK/watch.out")")
expect_output "watch sees the new TrainJob" $'\nlater '
expect_output "watch sees it complete" $'\nlater Complete '

"$PY" "$(dirname "$0")/python_trainjob.py" "$KCFG" default || fail "the Python client refused what kubesim serves"
echo "ok: ${#VERSIONS[@]} kubectl versions and the Python client"
