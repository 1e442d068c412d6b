#!/usr/bin/env bash
# Kueue's visibility API in whichever version the cluster serves: kueue v0.19.2 registers
# v1beta2 (preferred) and v1beta1; v0.9 to v0.14 only v1beta1; a release that drops v1beta1
# only v1beta2. For each, kubesim serves just that version (the real kubectl checks what is
# discovered and that the other answers 404), and `queue pending`, `queue list --pending`
# and `get` show a waiting MPIJob at position 0, reading the version discovery names.
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
source "$(dirname "$0")/kueue_queues.bash"
KUBECTL=$(command -v kubectl || true)
[[ -n "$KUBECTL" ]] || skip_or_fail "kubectl not found"
k() { "$KUBECTL" --kubeconfig "$KCFG" "$@"; }

for version in v1beta2 v1beta1; do
  start_kubesim --default-outcome run-forever --kueue-visibility-versions "$version"
  [[ $version == v1beta2 ]] && other=v1beta1 || other=v1beta2
  OUT=$(k api-resources --api-group=visibility.kueue.x-k8s.io 2>&1) || fail "kubectl api-resources: $OUT"
  grep -q "visibility.kueue.x-k8s.io/$version *false *ClusterQueue" <<<"$OUT" ||
    fail "kubectl does not discover $version: $OUT"
  ! grep -q "visibility.kueue.x-k8s.io/$other" <<<"$OUT" || fail "kubectl discovers $other too: $OUT"

  # No GPU quota: the job waits, first in its queue.
  kueue_queues 0
  OUT=$(tc submit mpi --name=wait --gpus=1 --workers=1 --image=img --kueue-queue=team-a "mpirun python train.py" 2>&1) ||
    fail "submit mpi: $OUT"
  pending_at_0() {
    k get --raw "/apis/visibility.kueue.x-k8s.io/$version/clusterqueues/cluster-a/pendingworkloads" |
      grep -q '"positionInClusterQueue":0'
  }
  until_ok 30 pending_at_0 || fail "$version: the MPIJob's Workload is not pending: $(k get workloads -o yaml)"
  ! k get --raw "/apis/visibility.kueue.x-k8s.io/$other/clusterqueues/cluster-a/pendingworkloads" >/dev/null 2>&1 ||
    fail "$version: $other is served too"

  OUT=$(tc queue pending cluster-a 2>&1) || fail "$version: queue pending: $OUT"
  grep -Eq '^0 +default +MPIJob/wait +mpijob-wait-[0-9a-f]{5} +team-a +0 +0$' <<<"$OUT" ||
    fail "$version: queue pending does not show the MPIJob at 0:
$OUT"
  OUT=$(tc queue list --pending -o json 2>&1) || fail "$version: queue list --pending: $OUT"
  python3 -c 'import json,sys; [c]=json.load(sys.stdin)["kueue"]["clusterQueues"]; [w]=c["pendingWorkloads"]; assert w["job"]["name"]=="wait" and w["positionInClusterQueue"]==0, c' <<<"$OUT" ||
    fail "$version: queue list --pending -o json: $OUT"
  OUT=$(tc get wait 2>&1) || fail "$version: get wait: $OUT"
  expect_output "$version: get wait" "Queue: team-a (Kueue LocalQueue, ClusterQueue cluster-a), Pending at position 0"
done
echo "kueue_visibility_versions: ok"
