#!/usr/bin/env bash
# Seed 000's PyTorch walk-through, its submit line as printed (--sync-mode=git included), on a
# kubesim cluster that has only Kubeflow Trainer v2 and JobSet (--operators trainer,jobset,
# Trainer v2.3.0's runtimes), judged by the real kubectl:
#  - submit pytorch makes a TrainJob on its own TrainingRuntime pytorch-dist-code-sync, a copy
#    of torch-distributed with the git-sync init container, owned by the TrainJob;
#  - the JobSet's three pods run that init container first (Initialized, its status
#    Completed), mount its emptyDir at /root/code and the volume of --data;
#  - list, get, logs and top job show the job; delete leaves no TrainJob, TrainingRuntime,
#    JobSet, Job, pod, Service, ConfigMap or TensorBoard Deployment of it.
# Exit 77 (skipped) without kubectl or the runtimes (CI=true: fails).
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
command -v kubectl >/dev/null || skip_or_fail "kubectl not found"
require_trainer_runtimes
start_kubesim --operators trainer,jobset --runtimes "$RUNTIMES" --default-duration 10m
k() { kubectl --kubeconfig "$KCFG" "$@"; }

OUT=$(tc submit pytorch "${SEED000_PYTORCH[@]}" 2>"$WORK/err") || fail "submit: $OUT $(cat "$WORK/err")"
expect_output "submitted" "The Job pytorch-dist has been submitted successfully"
grep -q "submitting a TrainJob on the ClusterTrainingRuntime torch-distributed" "$WORK/err" ||
  fail "no line on stderr: $(cat "$WORK/err")"

# The TrainJob names its own TrainingRuntime, which the TrainJob owns.
OUT=$(k get trainjob pytorch-dist -o jsonpath='{.spec.runtimeRef.kind}/{.spec.runtimeRef.name} {.spec.trainer.numNodes} {.metadata.uid}')
read -r REF NODES UID_ <<<"$OUT"
[[ "$REF $NODES" == "TrainingRuntime/pytorch-dist-code-sync 3" ]] || fail "TrainJob: $OUT"
k get trainingruntime pytorch-dist-code-sync -o json >"$WORK/runtime.json" || fail "no TrainingRuntime pytorch-dist-code-sync"
python3 - "$WORK/runtime.json" "$UID_" <<'PY' || fail "TrainingRuntime: $(cat "$WORK/runtime.json")"
import json, sys
r = json.load(open(sys.argv[1]))
owners = r["metadata"]["ownerReferences"]
assert [(o["kind"], o["name"], o["uid"]) for o in owners] == [("TrainJob", "pytorch-dist", sys.argv[2])], owners
assert r["metadata"]["labels"]["trainer.kubeflow.org/framework"] == "torch", r["metadata"]
assert r["spec"]["mlPolicy"]["torch"] == {}, r["spec"]["mlPolicy"]
pod = r["spec"]["template"]["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]["spec"]
init = pod["initContainers"][0]
env = {e["name"]: e["value"] for e in init["env"]}
assert env["GIT_SYNC_REPO"] == "https://code.aliyun.com/370272561/mnist-pytorch.git", env
assert env["GIT_SYNC_DEST"] == "mnist-pytorch" and env["GIT_SYNC_ONE_TIME"] == "true", env
assert {"name": "code-sync", "emptyDir": {}} in pod["volumes"], pod["volumes"]
PY

# The pods: the init container ran before node, the code and data volumes are mounted.
deadline=$((SECONDS + 60))
until [[ $(k get pods -l jobset.sigs.k8s.io/jobset-name=pytorch-dist --field-selector=status.phase=Running -o name | wc -l) == 3 ]]; do
  ((SECONDS < deadline)) || fail "three running pods: $(k get pods -o wide)"
  sleep 0.3
done
k get pods -l jobset.sigs.k8s.io/jobset-name=pytorch-dist -o json >"$WORK/pods.json"
python3 - "$WORK/pods.json" <<'PY' || fail "pods: $(cat "$WORK/pods.json")"
import json, sys
pods = json.load(open(sys.argv[1]))["items"]
assert len(pods) == 3, len(pods)
for p in pods:
    spec, st = p["spec"], p["status"]
    assert [c["name"] for c in spec["initContainers"]] == ["init-code"], spec["initContainers"]
    node = [c for c in spec["containers"] if c["name"] == "node"][0]
    mounts = {m["name"]: m["mountPath"] for m in node["volumeMounts"]}
    assert mounts.get("code-sync") == "/root/code" and mounts.get("training-data") == "/mnist_data", mounts
    assert [s["state"]["terminated"]["reason"] for s in st["initContainerStatuses"]] == ["Completed"], st
    assert any(c["type"] == "Initialized" and c["status"] == "True" for c in st["conditions"]), st
PY

OUT=$(tc list)
grep -Eq '^pytorch-dist +RUNNING +TRAINJOB +[0-9]+[sm] +3 +3 ' <<<"$OUT" || fail "list: $OUT"
OUT=$(tc get pytorch-dist)
expect_output "get status" "Status:      RUNNING"
[[ $(grep -c 'pytorch-dist-node-0-' <<<"$OUT") -ge 3 ]] || fail "get: three instances: $OUT"
OUT=$(tc top job)
grep -Eq '^pytorch-dist +RUNNING +TRAINJOB' <<<"$OUT" || fail "top job: $OUT"
OUT=$(tc logs pytorch-dist 2>&1) || fail "logs: $OUT"
expect_output "chief log" "CURRENT_RANK: 0"

OUT=$(tc delete pytorch-dist 2>&1) || fail "delete: $OUT"
left() { k get trainjob,trainingruntime,jobset,jobs,pods,services,configmaps,deployments -o name 2>/dev/null | grep pytorch-dist; }
deadline=$((SECONDS + 60))
until [[ -z "$(left)" ]]; do
  ((SECONDS < deadline)) || fail "left behind: $(left)"
  sleep 0.3
done
echo "ok"
