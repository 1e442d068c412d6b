#!/usr/bin/env bash
# The GPUs a TrainJob asks for through its runtime, on a cluster with only Kubeflow Trainer v2
# and JobSet: a TrainJob whose trainer.resourcesPerNode names no GPU runs with its runtime's
# node container GPUs (Trainer v2.3.0 merges resourcesPerNode into them key by key), so list,
# get and top job show the runtime's GPUs times the nodes before the job has pods (suspended
# here); kubectl reads the runtime and the TrainJob the number comes from. A job that names its
# own GPUs keeps them. The live views read the runtime the same way: list -w's first view and
# top job -r's view, then a TrainJob that arrives by a watch event on a runtime not read yet.
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

# start_live FILE ARGS...: trainctl ARGS, a live view, in the background, printing to FILE;
# until_in FILE PATTERN: until FILE has a line matching PATTERN, or the view ended, or 60 s
# passed (the checks after say what is missing); stop_live: SIGTERM (a background job of a
# script ignores SIGINT), once each view it printed was flushed.
start_live() {
  local file=$1
  shift
  "$TRAINCTL" --kubeconfig "$KCFG" "$@" >"$file" 2>"$file.err" &
  LIVE_PID=$!
}
until_in() {
  local deadline=$((SECONDS + 60))
  until grep -Eq "$2" "$1"; do
    ((SECONDS < deadline)) && kill -0 "$LIVE_PID" 2>/dev/null || return 0
    sleep 0.2
  done
}
stop_live() {
  kill -TERM "$LIVE_PID" 2>/dev/null || true
  wait "$LIVE_PID" 2>/dev/null || true
}
# list -w: its first view is the table of both jobs, header and two rows, printed at once.
start_live "$WORK/list-w.txt" list -w
until_in "$WORK/list-w.txt" '^own '
until_in "$WORK/list-w.txt" '^tune '
# A TrainJob that comes by a watch event, on a runtime no job named before: 4 x 2 nodes.
OUT=$({ torch_runtime TrainingRuntime four-gpus "{limits: {nvidia.com/gpu: 4}}"; echo ---; suspended_trainjob late 2 |
  sed 's/two-gpus/four-gpus/'; } | k apply -f - 2>&1) || fail "apply four-gpus: $OUT"
until_in "$WORK/list-w.txt" '^late '
stop_live
OUT=$(cat "$WORK/list-w.txt")
FIRST=$(sed -n 2,3p <<<"$OUT")
grep -Eq "^tune +SUSPENDED +TRAINJOB +[0-9]+[sm] +$WANT +N/A " <<<"$FIRST" ||
  fail "list -w's first view: GPUs from the runtime: $OUT $(cat "$WORK/list-w.txt.err")"
grep -Eq "^own +SUSPENDED +TRAINJOB +[0-9]+[sm] +2 +N/A " <<<"$FIRST" || fail "list -w's first view, own: $OUT"
grep -Eq "^late +SUSPENDED +TRAINJOB +[0-9]+[sm] +8 +N/A " <<<"$OUT" || fail "list -w: the new job's runtime GPUs: $OUT $(cat "$WORK/list-w.txt.err")"
# top job -r: the same GPUs.
start_live "$WORK/top-r.txt" top job -r 1
until_in "$WORK/top-r.txt" '^Total Allocated/Requested'
stop_live
OUT=$(cat "$WORK/top-r.txt")
grep -Eq "^tune +SUSPENDED +TRAINJOB +[0-9]+[sm] +$WANT +0 " <<<"$OUT" || fail "top job -r: GPUs from the runtime: $OUT"
grep -Eq "^late +SUSPENDED +TRAINJOB +[0-9]+[sm] +8 +0 " <<<"$OUT" || fail "top job -r: late: $OUT"
echo "ok"
