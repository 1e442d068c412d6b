#!/usr/bin/env bash
# submit trainjob --sync-mode on a kubesim cluster that has only Kubeflow Trainer v2 and JobSet
# (Trainer v2.3.0's runtimes), judged by the real kubectl and python3:
#  - the TrainJob runs on its own TrainingRuntime NAME-code-sync, a copy of the runtime
#    --runtime names (a ClusterTrainingRuntime, then a TrainingRuntime of the namespace) with
#    the git-sync init container, annotated with what it copies and owned by the TrainJob;
#  - the pods run that init container first and mount its emptyDir at WORKING_DIR/code;
#  - runtime list shows the runtimes a user picks and not the copies; --all shows the copies
#    with the runtime each copies and its job;
#  - delete leaves neither the TrainJob nor its runtime.
# Exit 77 (skipped) without kubectl or the runtimes (CI=true: fails).
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
source "$(dirname "$0")/trainjobs.bash"
command -v kubectl >/dev/null || skip_or_fail "kubectl not found"
require_trainer_runtimes
start_kubesim --operators trainer,jobset --runtimes "$RUNTIMES" --default-duration 10m
k() { kubectl --kubeconfig "$KCFG" "$@"; }
REPO=https://code.aliyun.com/370272561/mnist-pytorch.git

# check_copy JOB COPIED_KIND/COPIED_NAME NODES: the TrainJob, its runtime and its pods as kubectl
# reads them.
check_copy() {
  local job=$1 copied=$2 nodes=$3 out ref n uid
  out=$(k get trainjob "$job" -o jsonpath='{.spec.runtimeRef.kind}/{.spec.runtimeRef.name} {.spec.trainer.numNodes} {.metadata.uid}')
  read -r ref n uid <<<"$out"
  [[ "$ref $n" == "TrainingRuntime/$job-code-sync $nodes" ]] || fail "$job's TrainJob: $out"
  k get trainingruntime "$job-code-sync" -o json >"$WORK/$job-runtime.json" || fail "no TrainingRuntime $job-code-sync"
  k get "${copied%%/*}" "${copied#*/}" -o json >"$WORK/$job-copied.json" || fail "no $copied"
  python3 - "$WORK/$job-runtime.json" "$WORK/$job-copied.json" "$job" "$uid" "$copied" "$REPO" <<'PY' ||
import json, sys
r, src = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
job, uid, copied, repo = sys.argv[3:]
meta = r["metadata"]
assert [(o["kind"], o["name"], o["uid"]) for o in meta["ownerReferences"]] == [("TrainJob", job, uid)], meta
assert meta["annotations"]["trainctl.io/copy-of"] == copied, meta
assert meta["labels"]["trainer.kubeflow.org/framework"] == src["metadata"]["labels"]["trainer.kubeflow.org/framework"]
assert r["spec"]["mlPolicy"] == src["spec"]["mlPolicy"], (r["spec"]["mlPolicy"], src["spec"]["mlPolicy"])
for rj, orig in zip(r["spec"]["template"]["spec"]["replicatedJobs"], src["spec"]["template"]["spec"]["replicatedJobs"]):
    pod = rj["template"]["spec"]["template"]["spec"]
    node = [c for c in pod["containers"] if c["name"] == "node"][0]
    orig_node = [c for c in orig["template"]["spec"]["template"]["spec"]["containers"] if c["name"] == "node"][0]
    assert node["image"] == orig_node["image"], (node, orig_node)
    env = {e["name"]: e["value"] for e in pod["initContainers"][-1]["env"]}
    assert env["GIT_SYNC_REPO"] == repo and env["GIT_SYNC_DEST"] == "mnist-pytorch", env
    assert {"name": "code-sync", "emptyDir": {}} in pod["volumes"], pod["volumes"]
    assert {"name": "code-sync", "mountPath": "/root/code"} in node["volumeMounts"], node
PY
    fail "$job's TrainingRuntime: $(cat "$WORK/$job-runtime.json")"
  # The pods: the init container ran before node, the code volume is mounted.
  local deadline=$((SECONDS + 60))
  until [[ $(k get pods -l "jobset.sigs.k8s.io/jobset-name=$job" --field-selector=status.phase=Running -o name | wc -l) == "$nodes" ]]; do
    ((SECONDS < deadline)) || fail "$nodes running pods of $job: $(k get pods -o wide)"
    sleep 0.3
  done
  k get pods -l "jobset.sigs.k8s.io/jobset-name=$job" -o json >"$WORK/$job-pods.json"
  python3 - "$WORK/$job-pods.json" "$nodes" <<'PY' || fail "$job's pods: $(cat "$WORK/$job-pods.json")"
import json, sys
pods = json.load(open(sys.argv[1]))["items"]
assert len(pods) == int(sys.argv[2]), len(pods)
for p in pods:
    spec, st = p["spec"], p["status"]
    assert [c["name"] for c in spec["initContainers"]] == ["init-code"], spec["initContainers"]
    node = [c for c in spec["containers"] if c["name"] == "node"][0]
    assert {"name": "code-sync", "mountPath": "/root/code"} in node["volumeMounts"], node["volumeMounts"]
    assert [s["state"]["terminated"]["reason"] for s in st["initContainerStatuses"]] == ["Completed"], st
PY
}

# ---- on a ClusterTrainingRuntime ----
OUT=$(tc submit trainjob --name=tune --runtime=torch-distributed --workers=2 --gpus=1 --working-dir=/root \
  --sync-mode=git --sync-source=$REPO "python /root/code/mnist-pytorch/mnist.py" 2>&1) ||
  fail "submit trainjob --sync-mode: $OUT"
expect_output "submitted" "The Job tune has been submitted successfully"
check_copy tune ClusterTrainingRuntime/torch-distributed 2

# ---- on a TrainingRuntime of the namespace (Arena's camelCase spellings) ----
OUT=$(torch_runtime TrainingRuntime mine "{limits: {nvidia.com/gpu: 1}}" | k apply -f - 2>&1) || fail "apply mine: $OUT"
OUT=$(tc submit trainjob --name=mytune --runtime=mine --runtime-kind=TrainingRuntime --working-dir=/root \
  --syncMode=git --syncSource=$REPO "python /root/code/mnist-pytorch/mnist.py" 2>&1) ||
  fail "submit trainjob --runtime-kind TrainingRuntime --syncMode: $OUT"
check_copy mytune TrainingRuntime/mine 1

# ---- runtime list: the runtimes a user picks, as kubectl lists them less the copies ----
want=$( { k get clustertrainingruntimes -o name; k get trainingruntimes -o name; } | sed 's|.*/||' | grep -v -- '-code-sync$' | sort | tr '\n' ' ')
[[ "$want" == *"torch-distributed "* && "$want" == *"mine "* ]] || fail "kubectl's runtimes: $want"
OUT=$(tc runtime list 2>&1) || fail "runtime list: $OUT"
got=$(tail -n +2 <<<"$OUT" | awk '{print $1}' | sort | tr '\n' ' ')
[[ "$got" == "$want" ]] || fail "runtime list shows $got, kubectl's runtimes less the copies are $want: $OUT"
got=$(tc runtime list -o json | python3 -c 'import json,sys; print(" ".join(sorted(i["name"] for i in json.load(sys.stdin)["items"])), end=" ")')
[[ "$got" == "$want" ]] || fail "runtime list -o json: $got, want $want"
# --all: the copies too, each with what it copies and its job.
OUT=$(tc runtime list --all 2>&1) || fail "runtime list --all: $OUT"
grep -Eq '^tune-code-sync +TrainingRuntime +torch +1 +[^ ]+ +no +ClusterTrainingRuntime/torch-distributed +tune$' <<<"$OUT" ||
  fail "runtime list --all: tune's copy: $OUT"
grep -Eq '^mytune-code-sync +TrainingRuntime +torch +1 +pytorch/pytorch +no +TrainingRuntime/mine +mytune$' <<<"$OUT" ||
  fail "runtime list --all: mytune's copy: $OUT"
grep -Eq '^torch-distributed +ClusterTrainingRuntime .* +- +-$' <<<"$OUT" || fail "runtime list --all: torch-distributed: $OUT"
[[ $(tail -n +2 <<<"$OUT" | wc -l) -eq $(($(wc -w <<<"$want") + 2)) ]] || fail "runtime list --all rows: $OUT"

# ---- delete: the garbage collector takes the runtime with its TrainJob ----
for job in tune mytune; do OUT=$(tc delete "$job" 2>&1) || fail "delete $job: $OUT"; done
left() { k get trainjob,trainingruntime,jobset,pods -o name 2>/dev/null | grep -E 'tune' || true; }
deadline=$((SECONDS + 60))
until [[ -z "$(left)" ]]; do
  ((SECONDS < deadline)) || fail "left behind: $(left)"
  sleep 0.3
done
[[ -n "$(k get trainingruntime mine -o name)" ]] || fail "the namespace's own runtime went too"
echo "ok"
