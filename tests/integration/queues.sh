#!/usr/bin/env bash
# Queues end to end on kubesim with Kueue's CRDs: a ClusterQueue with a nominal quota of 4
# GPUs and three jobs of 2 GPUs each sent with --kueue-queue: two are admitted and run, the
# third waits at position 0; queue list, queue list --pending and get show it, and the real
# kubectl (as an independent client) reads the same through the CRDs and the visibility API.
# Deleting a running job admits the third. Volcano: queue list counts the PodGroup of a
# Volcano job in the default queue.
# Kueue here enables kubeflow.org/pytorchjob, as v0.9 to v0.18 ship it and as an admin of
# v0.19 must (kueue_integrations.sh: v0.19.2's default refuses --kueue-queue on PyTorchJobs).
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
source "$(dirname "$0")/kueue_queues.bash"
KUBECTL=$(command -v kubectl || true)
[[ -n "$KUBECTL" ]] || skip_or_fail "kubectl not found"
start_kubesim --default-outcome run-forever --kueue-integrations batch/job,kubeflow.org/mpijob,kubeflow.org/pytorchjob
k() { "$KUBECTL" --kubeconfig "$KCFG" "$@"; }

kueue_queues 4 StrictFIFO

for j in q1 q2 q3; do
  OUT=$(tc submit pytorch --name=$j --gpus=2 --workers=1 --image=pytorch/pytorch:2.3 --kueue-queue=team-a \
    "python train.py" 2>&1) || fail "submit $j: $OUT"
  sleep 1.1  # distinct creation times: Kueue's queue order
done

running() { [[ $(k get pods -l training.kubeflow.org/job-name="$1" -o jsonpath='{.items[*].status.phase}') == Running ]]; }
until_ok 30 running q1 || fail "q1 does not run"
until_ok 30 running q2 || fail "q2 does not run"
[[ -z $(k get pods -l training.kubeflow.org/job-name=q3 -o name) ]] || fail "q3 has pods while its quota is taken"
[[ $(k get pytorchjob q3 -o jsonpath='{.spec.runPolicy.suspend}') == true ]] || fail "q3 is not suspended"

# The real kubectl: the ClusterQueue's counts and the visibility API's position.
until_ok 10 bash -c "[[ \$('$KUBECTL' --kubeconfig '$KCFG' get clusterqueues cluster-a -o jsonpath='{.status.pendingWorkloads}/{.status.admittedWorkloads}') == 1/2 ]]" ||
  fail "kubectl get clusterqueues: $(k get clusterqueues cluster-a -o yaml)"
OUT=$(k get --raw /apis/visibility.kueue.x-k8s.io/v1beta1/clusterqueues/cluster-a/pendingworkloads)
python3 - "$OUT" <<'PY' || fail "visibility API (cluster queue): $OUT"
import json, sys
s = json.loads(sys.argv[1])
assert s["kind"] == "PendingWorkloadsSummary", s
[w] = s["items"]
assert w["metadata"]["ownerReferences"][0]["name"] == "q3", w
assert w["positionInClusterQueue"] == 0 and w["positionInLocalQueue"] == 0 and w["localQueueName"] == "team-a", w
PY
OUT=$(k get --raw /apis/visibility.kueue.x-k8s.io/v1beta1/namespaces/default/localqueues/team-a/pendingworkloads)
grep -q '"positionInLocalQueue":0' <<<"$OUT" || fail "visibility API (local queue): $OUT"
OUT=$(k api-resources --api-group=visibility.kueue.x-k8s.io 2>&1) || fail "kubectl api-resources: $OUT"
grep -q 'visibility.kueue.x-k8s.io/v1beta2 *false *ClusterQueue' <<<"$OUT" ||
  fail "kubectl does not discover the visibility API: $OUT"

OUT=$(tc queue list 2>&1) || fail "queue list: $OUT"
expect_output "queue list" "Volcano queues:"
grep -Eq '^cluster-a +- +default-flavor +nvidia.com/gpu +4 +4 +1 +2$' <<<"$OUT" || fail "queue list: no cluster-a row
$OUT"
grep -Eq '^default +team-a +cluster-a +1 +2$' <<<"$OUT" || fail "queue list: no team-a row
$OUT"
OUT=$(tc queue list --pending 2>&1) || fail "queue list --pending: $OUT"
grep -Eq '^0 +default +PyTorchJob/q3 +pytorchjob-q3-[0-9a-f]{5} +team-a +0 +0$' <<<"$OUT" ||
  fail "queue list --pending: q3 not at position 0
$OUT"
OUT=$(tc queue pending cluster-a -o json 2>&1) || fail "queue pending: $OUT"
python3 -c 'import json,sys; [w]=json.load(sys.stdin); assert w["job"]["name"]=="q3" and w["positionInClusterQueue"]==0, w' <<<"$OUT" ||
  fail "queue pending -o json: $OUT"
OUT=$(tc top queue -o json 2>&1) || fail "top queue: $OUT"
python3 -c 'import json,sys; d=json.load(sys.stdin); [c]=d["kueue"]["clusterQueues"]; assert c["quotas"][0]["used"]=="4" and c["pending"]==1, c' <<<"$OUT" ||
  fail "top queue -o json: $OUT"
OUT=$(tc get q3 2>&1) || fail "get q3: $OUT"
expect_output "get q3" "Queue: team-a (Kueue LocalQueue, ClusterQueue cluster-a), Pending at position 0"
OUT=$(tc get q3 -o json 2>&1) || fail "get q3 -o json: $OUT"
python3 -c 'import json,sys; q=json.load(sys.stdin)["queue"]; assert q=={"name":"team-a","kind":"kueue","position":0,"clusterQueue":"cluster-a","phase":"Pending"}, q' <<<"$OUT" ||
  fail "get q3 -o json: $OUT"

# A running job goes: its Workload goes with it (garbage collector), q3 is admitted and runs.
OUT=$(tc delete q1 2>&1) || fail "delete q1: $OUT"
until_ok 30 running q3 || fail "q3 is not admitted after q1 was deleted: $(k get workloads -o yaml)"
[[ $(k get pytorchjob q3 -o jsonpath='{.spec.runPolicy.suspend}') == false ]] || fail "q3 is still suspended"
OUT=$(tc queue pending cluster-a 2>&1) || fail "queue pending after: $OUT"
expect_output "queue pending after" "No pending workloads"

# Volcano: the default queue counts the PodGroup of a Volcano job.
OUT=$(tc submit volcano --name=vc --image=busybox --task=worker:2 "sleep 60" 2>&1) || fail "submit volcano: $OUT"
until_ok 30 bash -c "'$TRAINCTL' --kubeconfig '$KCFG' queue list | grep -Eq '^default +Open +1 +- +- +(1 +0 +0|0 +0 +1)$'" ||
  fail "queue list does not count the Volcano job: $(tc queue list 2>&1)"
echo "queues: ok"
