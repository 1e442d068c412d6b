#!/usr/bin/env bash
# get's explanation of a pending job on a cluster laid out as GKE lays out GPU pools: every GPU
# node tainted nvidia.com/gpu=present:NoSchedule, the pods tolerating it. The fit check counts
# only the nodes a pod may go to (kube-scheduler's NodeUnschedulable, TaintToleration and
# NodeAffinity filters), and the events it shows are the job's own: not those of a job whose
# name it is a prefix of, nor those of an earlier job of the same name (by involvedObject UID).
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
source "$(dirname "$0")/why_pending.bash"
command -v kubectl >/dev/null || skip_or_fail "kubectl not found"
KUBESIM_SEED="$WORK/gke.yaml"
cat >"$KUBESIM_SEED" <<'YAML'
nodes:
  - {name: cpu-0, ip: 10.0.0.2, cpu: "64", memory: 512Gi, labels: {cloud.google.com/gke-nodepool: default-pool}}
  - {name: gpu-a, ip: 10.0.0.11, gpus: 4, cpu: "64", memory: 512Gi, labels: {cloud.google.com/gke-nodepool: gpu-pool},
     taints: [{key: nvidia.com/gpu, value: present, effect: NoSchedule}]}
  - {name: gpu-b, ip: 10.0.0.12, gpus: 4, cpu: "64", memory: 512Gi, labels: {cloud.google.com/gke-nodepool: gpu-pool},
     taints: [{key: nvidia.com/gpu, value: present, effect: NoSchedule}]}
YAML
echo "$CAPPED_SEED" >>"$KUBESIM_SEED"
start_kubesim --default-outcome run-forever

# The GPU nodes have 4 GPUs each, 3 of gpu-a taken: a pod that tolerates the taint and asks
# for 8 is short of GPUs on every node it may use, not of schedulable nodes.
submit pytorch --name=busy --gpus=3 --toleration nvidia.com/gpu --image=pytorch/pytorch "python train.py"
submit pytorch --name=wide --gpus=8 --toleration nvidia.com/gpu --image=pytorch/pytorch "python train.py"
OUT=$(wait_reason wide "Unschedulable")
grep -qF "needs 8 GPUs on one node, the largest schedulable node has 4" <<<"$OUT" || fail "wide: $OUT"
if grep -qF "has 0" <<<"$OUT"; then fail "wide counts the tolerated GPU nodes out: $OUT"; fi
# kubectl, the judge: the pod does carry the toleration, and the GPU nodes the taint.
tolerations=$(kubectl --kubeconfig "$KCFG" get pod wide-master-0 -o jsonpath='{.spec.tolerations[*].key}')
grep -qw nvidia.com/gpu <<<"$tolerations" || fail "wide-master-0 has no nvidia.com/gpu toleration: $tolerations"
[[ $(kubectl --kubeconfig "$KCFG" get node gpu-a -o jsonpath='{.spec.taints[0].effect}') == NoSchedule ]] ||
  fail "gpu-a is not tainted"
submit pytorch --name=four --gpus=4 --workers=2 --toleration nvidia.com/gpu --image=pytorch/pytorch "python train.py"
OUT=$(wait_reason four "the most free on any node is")
grep -qF "needs 4 GPUs on one node, the most free on any node is 1" <<<"$OUT" || fail "four: $OUT"

# A nodeSelector no node matches: the fit check names the filter, as the scheduler does.
submit pytorch --name=picky --gpus=1 --toleration nvidia.com/gpu --selector cloud.google.com/gke-nodepool=a100-pool \
  --image=pytorch/pytorch "python train.py"
OUT=$(wait_reason picky "no node may take it")
grep -qF "needs 1 GPU on one node; no node may take it: 3 node(s) didn't match Pod's node affinity/selector" <<<"$OUT" ||
  fail "picky: $OUT"
for j in busy wide four picky; do tc delete "$j" >/dev/null; done

# Namespace capped allows 1 GPU. train waits for a node pool that does not exist (1 GPU: the
# quota admits it); train2 and train-big ask for more than the quota and are refused. get
# train tells train's cause, not theirs.
submit -n capped pytorch --name=train --gpus=1 --selector cloud.google.com/gke-nodepool=none --image=pytorch/pytorch "python train.py"
submit -n capped pytorch --name=train2 --gpus=2 --image=pytorch/pytorch "python train.py"
submit -n capped pytorch --name=train-big --gpus=4 --image=pytorch/pytorch "python train.py"
wait_reason train2 "ExceededQuota" -n capped >/dev/null
wait_reason train-big "ExceededQuota" -n capped >/dev/null
OUT=$(wait_reason train "Unschedulable" -n capped)
if grep -qF "exceeded quota" <<<"$OUT"; then fail "get train shows another job's refusal: $OUT"; fi
# kubectl, the judge: the refusals are on record, as events of train2 and train-big.
refusals=$(kubectl --kubeconfig "$KCFG" get events -n capped --field-selector reason=FailedCreatePod \
  -o jsonpath='{range .items[*]}{.involvedObject.name}{"\n"}{end}')
grep -qx train2 <<<"$refusals" && grep -qx train-big <<<"$refusals" || fail "no FailedCreatePod events of train2 and train-big: $refusals"
if grep -qx train <<<"$refusals"; then fail "train was refused too: $refusals"; fi

# An earlier train2 was refused; deleted and submitted again within the quota, its events stay
# behind (events outlive their objects), and the new train2 is not explained by them.
tc delete -n capped train >/dev/null
tc delete -n capped train-big >/dev/null
tc delete -n capped train2 >/dev/null
for _ in $(seq 1 60); do
  [[ -z $(kubectl --kubeconfig "$KCFG" get pods -n capped -o name) ]] && break
  sleep 0.5
done
submit -n capped pytorch --name=train2 --gpus=1 --selector cloud.google.com/gke-nodepool=none --image=pytorch/pytorch "python train.py"
OUT=$(wait_reason train2 "Unschedulable" -n capped)
if grep -qF "exceeded quota" <<<"$OUT"; then fail "the new train2 shows the earlier one's refusal: $OUT"; fi
OUT=$(tc get train2 -n capped --events 2>&1) || fail "get --events: $OUT"
if grep -qF "exceeded quota" <<<"$OUT"; then fail "get --events shows the earlier train2's events: $OUT"; fi
echo "ok"
