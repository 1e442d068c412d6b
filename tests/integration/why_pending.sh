#!/usr/bin/env bash
# get explains a pending job on kubesim, one scenario per cause: a gang bigger than the
# cluster's free GPUs (PodGroup Unschedulable), a pod only a tainted node could take
# (FailedScheduling with the taint), a resource no node offers (--gputopology), a
# ResourceQuota that refuses the operator's pod creates (FailedCreatePod), an image that
# cannot be pulled; list -o wide shows the short reasons.
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
source "$(dirname "$0")/why_pending.bash"
KUBESIM_SEED="$WORK/why.yaml"
cat >"$KUBESIM_SEED" <<'YAML'
nodes:
  - {name: gpu-a, ip: 10.0.0.11, gpus: 2, cpu: "64", memory: 512Gi}
  - {name: gpu-b, ip: 10.0.0.12, gpus: 2, cpu: "64", memory: 512Gi}
  - {name: master-0, ip: 10.0.0.2, gpus: 8, cpu: "64", memory: 512Gi, roles: [master],
     taints: [{key: node-role.kubernetes.io/master, effect: NoSchedule}]}
YAML
echo "$CAPPED_SEED" >>"$KUBESIM_SEED"
start_kubesim --default-outcome run-forever

# A gang of 3 pods (master and 2 workers) with 2 GPUs each; the untainted nodes have 2 + 2.
submit pytorch --name=gang --workers=3 --gpus=2 --gang --image=pytorch/pytorch "python train.py"
OUT=$(wait_reason gang "Pending:     GangUnschedulable: PodGroup gang")
grep -qF "tasks in gang unschedulable" <<<"$OUT" || fail "no gang message: $OUT"
JSON=$(tc get gang -o json)
grep -q '"reason": "GangUnschedulable"' <<<"$JSON" || fail "get -o json has no pending reason: $JSON"
grep -q 'the gang needs 3 pods at once; the nodes'"'"' free GPUs can place 2' <<<"$JSON" ||
  fail "no gang minimum against the nodes: $JSON"
tc delete gang >/dev/null

# 8 GPUs: only the tainted master has them.
submit pytorch --name=tainted --gpus=8 --image=pytorch/pytorch "python train.py"
OUT=$(wait_reason tainted "node(s) had untolerated taint {node-role.kubernetes.io/master: }")
grep -qF "Pending:     Unschedulable: pod tainted-master-0: 0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/master: }, 2 Insufficient nvidia.com/gpu." <<<"$OUT" ||
  fail "taint message: $OUT"
tc delete tainted >/dev/null

# aliyun.com/gpu (--gputopology) on a cluster without topology nodes.
submit mpi --name=topo --workers=1 --gpus=2 --gputopology --image=mpi "mpirun train"
OUT=$(wait_reason topo "no node offers aliyun.com/gpu — did you mean --gpus without --gputopology?")
tc delete topo >/dev/null

# The quota of namespace capped allows 1 GPU: the operator's pod creates are refused.
submit -n capped pytorch --name=capped --gpus=2 --image=pytorch/pytorch "python train.py"
OUT=$(wait_reason capped "ExceededQuota" -n capped)
grep -qF "exceeded quota: gpu-quota, requested: requests.nvidia.com/gpu=2, used: requests.nvidia.com/gpu=0, limited: requests.nvidia.com/gpu=1" <<<"$OUT" ||
  fail "quota message: $OUT"

# An image that never pulls.
submit pytorch --name=badimage --gpus=1 --image=registry.example.com/kubesim-pull-error:1 "python train.py"
OUT=$(wait_reason badimage "Pending:     ImagePullBackOff: 1 pod cannot pull image \"registry.example.com/kubesim-pull-error:1\": Back-off pulling image")

# list -o wide: the short reasons, from one extra list of the namespace's events.
OUT=$(tc list -o wide)
grep -Eq '^badimage +.*ImagePullBackOff' <<<"$OUT" || fail "list -o wide: $OUT"
OUT=$(tc list -o wide -n capped)
grep -Eq '^capped +.*ExceededQuota' <<<"$OUT" || fail "list -o wide -n capped: $OUT"
echo "ok"
