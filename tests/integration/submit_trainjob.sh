#!/usr/bin/env bash
# submit trainjob, runtime list and submit pytorch on a kubesim cluster that has only Kubeflow
# Trainer v2, JobSet and Kueue (--operators trainer,jobset,kueue; the v2.3.0 default runtimes),
# judged by the real kubectl and PyYAML:
#  - runtime list shows the runtimes with their framework, nodes and image;
#  - submit trainjob on torch-distributed: the TrainJob, its JobSet and its pods, with the
#    --data volume and the --label on the pods (runtimePatches);
#  - an unknown runtime is refused in one line naming the cluster's runtimes, nothing created;
#  - --kueue-queue into a queue without quota: Kueue suspends the TrainJob, its Workload waits;
#  - submit pytorch with seed 000's flags without the code sync: a TrainJob on
#    torch-distributed with its TensorBoard;
#  - --dry-run's YAML and JSON pass kubectl create --dry-run=server and PyYAML.
# Exit 77 (skipped) without kubectl, the schemas or the runtimes (CI=true: fails).
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
KUBECTL=$(command -v kubectl || true)
[[ -n "$KUBECTL" ]] || skip_or_fail "kubectl not found"
require_trainer_runtimes
[[ -n "$SCHEMAS" ]] || skip_or_fail "Kueue needs the schemas"
/usr/bin/python3 -c "import yaml" 2>/dev/null || skip_or_fail "python3-yaml is not installed"
source "$(dirname "$0")/kueue_queues.bash"
start_kubesim --runtimes "$RUNTIMES" --operators trainer,jobset,kueue
k() { "$KUBECTL" --kubeconfig "$KCFG" "$@"; }
# wait_for DESCRIPTION COMMAND...: until_ok (kueue_queues.bash) for 60 s, else fail.
wait_for() {
  local what=$1
  shift
  until_ok 60 "$@" || fail "$what: $("$@" 2>&1)"
}
count_pods() { k get pods -l "jobset.sigs.k8s.io/jobset-name=$1" -o name | wc -l; }

# ---- runtime list ----
OUT=$(tc runtime list 2>&1) || fail "runtime list: $OUT"
expect_output "runtime list header" "NAME"
grep -qE '^torch-distributed +ClusterTrainingRuntime +torch +1 +pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime +no$' <<<"$OUT" ||
  fail "torch-distributed's row: $OUT"
grep -qE '^deepspeed-distributed +ClusterTrainingRuntime +deepspeed ' <<<"$OUT" || fail "deepspeed's row: $OUT"
OUT=$(tc runtime list -o json | /usr/bin/python3 -c 'import json,sys; print(" ".join(i["name"] for i in json.load(sys.stdin)["items"]))')
expect_output "runtime list -o json" "torch-distributed"
# The same runtimes kubectl sees.
K=$(k get clustertrainingruntimes -o name | sed 's|.*/||' | sort | tr '\n' ' ')
[[ "$(tr ' ' '\n' <<<"$OUT" | sort | tr '\n' ' ')" == "$K" ]] || fail "runtime list $OUT, kubectl $K"
OUT=$(tc runtime list -o wide 2>&1)
grep -qE '^deepspeed-distributed .* launcher,node$|^deepspeed-distributed .* node,launcher$' <<<"$OUT" ||
  fail "runtime list -o wide: $OUT"

# ---- submit trainjob on torch-distributed ----
OUT=$(tc submit trainjob --name=tj1 --runtime=torch-distributed --workers=2 --gpus=1 \
  --data=training-data:/data --label=team=a "torchrun /data/train.py" 2>&1) || fail "submit trainjob: $OUT"
expect_output "submit trainjob" "The Job tj1 has been submitted successfully"
OUT=$(k get trainjob tj1 -o jsonpath='{.spec.runtimeRef.name} {.spec.runtimeRef.kind} {.spec.trainer.numNodes}')
[[ "$OUT" == "torch-distributed ClusterTrainingRuntime 2" ]] || fail "the TrainJob: $OUT"
wait_for "tj1's JobSet" k get jobset tj1
wait_for "tj1's two pods" bash -c "[[ \$(kubectl --kubeconfig '$KCFG' get pods -l jobset.sigs.k8s.io/jobset-name=tj1 -o name | wc -l) == 2 ]]"
OUT=$(k get pods -l jobset.sigs.k8s.io/jobset-name=tj1,team=a -o jsonpath='{range .items[*]}{.spec.containers[0].volumeMounts[*].mountPath} {.spec.volumes[*].persistentVolumeClaim.claimName};{end}')
grep -q "/data .*training-data;.*/data .*training-data;" <<<"$OUT" || fail "tj1's pods lack the --data volume or label: $OUT"

# ---- --wait: until the TrainJob's pods run, then trainctl get reads it as kubectl does ----
OUT=$(tc submit trainjob --name=tjw --runtime=torch-distributed --workers=2 --wait --timeout=60s "torchrun t.py" 2>&1) ||
  fail "submit trainjob --wait: $OUT"
expect_output "submit trainjob --wait" "job tjw: 2/2 pods running"
OUT=$(tc get tjw 2>&1) || fail "get tjw: $OUT"
expect_output "get tjw" "TRAINJOB"
[[ $(k get pods -l jobset.sigs.k8s.io/jobset-name=tjw -o name | wc -l) == 2 ]] || fail "kubectl sees not two pods of tjw"

# ---- an unknown runtime: one line, nothing created ----
set +e
OUT=$(tc submit trainjob --name=bad --runtime=torch-distribute "torchrun t.py" 2>&1)
rc=$?
set -e
[[ $rc == 2 ]] || fail "unknown runtime: exit $rc: $OUT"
[[ $(wc -l <<<"$OUT") == 1 ]] || fail "unknown runtime: not one line: $OUT"
expect_output "unknown runtime" 'no ClusterTrainingRuntime "torch-distribute" in this cluster: it has '
expect_output "unknown runtime" "torch-distributed"
[[ -z "$(k get trainjob bad --ignore-not-found -o name)" ]] || fail "bad was created"

# ---- --kueue-queue: suspended by Kueue, its Workload pending (no quota) ----
kueue_queues 0
OUT=$(tc submit trainjob --name=q1 --runtime=torch-distributed --gpus=1 --kueue-queue=team-a "torchrun t.py" 2>&1) ||
  fail "submit --kueue-queue: $OUT"
OUT=$(k get trainjob q1 -o jsonpath='{.spec.suspend} {.metadata.labels.kueue\.x-k8s\.io/queue-name}')
[[ "$OUT" == "true team-a" ]] || fail "q1 not suspended in team-a: $OUT"
wait_for "q1's Workload" bash -c "kubectl --kubeconfig '$KCFG' get workloads -o name | grep -q trainjob-q1-"
[[ $(count_pods q1) == 0 ]] || fail "q1 has pods while suspended"

# ---- submit pytorch with seed 000's flags but the code sync (trainjob_seed000.sh has them) ----
NOSYNC=()
for a in "${SEED000_PYTORCH[@]}"; do [[ "$a" == --sync-* ]] || NOSYNC+=("$a"); done
OUT=$(tc submit pytorch "${NOSYNC[@]}" 2>"$WORK/err") || fail "seed 000 without sync: $OUT $(cat "$WORK/err")"
grep -q "submitting a TrainJob on the ClusterTrainingRuntime torch-distributed" "$WORK/err" ||
  fail "no line on stderr: $(cat "$WORK/err")"
OUT=$(k get trainjob pytorch-dist -o jsonpath='{.spec.runtimeRef.name} {.spec.trainer.numNodes} {.spec.trainer.resourcesPerNode.limits.nvidia\.com/gpu}')
[[ "$OUT" == "torch-distributed 3 1" ]] || fail "pytorch-dist: $OUT"
k get deployment pytorch-dist-tensorboard >/dev/null || fail "no TensorBoard"
wait_for "pytorch-dist's three pods" bash -c "[[ \$(kubectl --kubeconfig '$KCFG' get pods -l jobset.sigs.k8s.io/jobset-name=pytorch-dist -o name | wc -l) == 3 ]]"
[[ -z "$(k get pytorchjobs 2>/dev/null)" ]] || true

# ---- --dry-run: what would be sent, judged by the API server (kubectl) and PyYAML ----
ARGS=(--name=dry --runtime=torch-distributed --workers=2 --gpus=1 --data=training-data:/data --selector=pool=gpu
  --toleration=gpu=yes:NoSchedule "torchrun train.py")
tc submit trainjob "${ARGS[@]}" --dry-run >"$WORK/dry.yaml"
/usr/bin/python3 -c 'import sys,yaml; d=list(yaml.safe_load_all(open(sys.argv[1]))); assert d[0]["kind"]=="TrainJob", d' "$WORK/dry.yaml" ||
  fail "PyYAML: $(cat "$WORK/dry.yaml")"
OUT=$(k create --dry-run=server -f "$WORK/dry.yaml" 2>&1) || fail "kubectl create --dry-run=server: $OUT"
tc submit trainjob "${ARGS[@]}" --dry-run -o json >"$WORK/dry.json"
OUT=$(k create --dry-run=server -f "$WORK/dry.json" 2>&1) || fail "kubectl create --dry-run=server (json): $OUT"
[[ -z "$(k get trainjob dry --ignore-not-found -o name)" ]] || fail "--dry-run created dry"
echo "ok"
