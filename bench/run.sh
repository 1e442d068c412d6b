#!/usr/bin/env bash
# trainctl vs kubectl: builds Release trainctl + kubesim when needed, preloads kubesim on
# 127.0.0.1 with a generated cluster, runs every scenario RUNS times for both tools against
# the same server and data, and prints medians (wall, CPU, peak RSS) with ratios.
#
#   bench/run.sh [--scale small|full] [--objects real|lean] [--runs N] [--only 1,5,6]
#                [--build-dir DIR] [--keep]
#
# --objects: the generated clusters' pods, jobs and nodes as kube-apiserver returns them
# (real, the default: managedFields, defaults, the kubelet's full status) or kubesim's lean
# ones (the fields trainctl and kubesim use). --only runs just the scenarios with these
# numbers (1 start-up ... 7 TrainJobs); the table shows "-" for the others.
# Environment: TRAINCTL, KUBESIM (use these binaries instead of building), KUBECTL (default:
# the newest kubectl.1.NN next to `kubectl`, else `kubectl`). See docs/performance.md.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(dirname "$here")
scale=full runs="" build="$src/build-bench" keep=0 only=1,2,3,4,5,6,7 objects=real
while [ $# -gt 0 ]; do
  case "$1" in
    --scale) scale=$2; shift 2 ;;
    --scale=*) scale=${1#*=}; shift ;;
    --runs) runs=$2; shift 2 ;;
    --runs=*) runs=${1#*=}; shift ;;
    --objects) objects=$2; shift 2 ;;
    --objects=*) objects=${1#*=}; shift ;;
    --only) only=$2; shift 2 ;;
    --only=*) only=${1#*=}; shift ;;
    --build-dir) build=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench: unknown argument $1" >&2; exit 2 ;;
  esac
done

case "$scale" in
  small) list_gen=nodes=200,jobs=500,pods=3000 top_gen=nodes=200,jobs=500,pods=3000
         get_workers=64 log_lines=20000 per_job=500; : "${runs:=2}" ;;
  full)  list_gen=nodes=5000,jobs=10000,pods=40000 top_gen=nodes=5000,jobs=10000,pods=150000
         get_workers=64 log_lines=1000000 per_job=10000; : "${runs:=5}" ;;
  *) echo "bench: --scale must be small or full" >&2; exit 2 ;;
esac
case "$objects" in
  real|lean) list_gen+=",objects=$objects" top_gen+=",objects=$objects" ;;
  *) echo "bench: --objects must be real or lean" >&2; exit 2 ;;
esac
# 7: as many TrainJobs as PyTorchJobs, with as many pods (a TrainJob has 1-4 nodes, 2.5 on
# average), each kind alone in its cluster.
list_nodes=${list_gen%%,*}
trainjob_gen="$list_nodes,jobs=0,pods=0,trainjobs=$per_job,objects=$objects"
pytorch_gen="$list_nodes,jobs=$per_job,pods=$((per_job * 5 / 2)),mix=pytorch,objects=$objects"

source "$here/common.bash"
if [ -z "${KUBECTL:-}" ]; then
  kdir=$(dirname "$(readlink -f "$(command -v kubectl)")")
  KUBECTL=$(ls "$kdir"/kubectl.1.* 2>/dev/null | sort -V | tail -1)
  KUBECTL=${KUBECTL:-$(command -v kubectl)}
fi

kc() { "$KUBECTL" --cache-dir "$work/kcache" "$@"; }
# payload ID PATH...: bytes of the response bodies of these GETs (unpaged), for MB/s.
payload() {
  local id=$1 total=0 n; shift
  for p in "$@"; do n=$(kc get --raw "$p" | wc -c); total=$((total + n)); done
  echo "$total" >"$work/stats/$id.bytes"
}

# measure ID TOOL CMD...: one warm-up run, then RUNS measured runs (stdout discarded).
measure() {
  local id=$1 tool=$2; shift 2
  local out=$work/stats/$id.$tool
  : >"$out"
  echo "bench: $id $tool: $*" >&2
  "$@" >/dev/null 2>"$work/$id.$tool.err" || { echo "bench: $id $tool failed:" >&2; tail -5 "$work/$id.$tool.err" >&2; echo FAIL >"$out"; return 0; }
  for ((r = 0; r < runs; r++)); do
    "$MEASURE" "$out" "$@" >/dev/null 2>>"$work/$id.$tool.err" || true
  done
}
sh_kc() { echo "\"$KUBECTL\" --cache-dir \"$work/kcache\""; }

# want N: scenario N is among --only.
want() { [[ ",$only," == *",$1,"* ]]; }

# --- scenarios ----------------------------------------------------------------------------
echo "bench: scale=$scale objects=$objects runs=$runs only=$only trainctl=$TRAINCTL kubectl=$KUBECTL" >&2

# 1. start-up
if want 1; then
measure 1-startup trainctl "$TRAINCTL" version
measure 1-startup kubectl "$KUBECTL" version --client
fi

# 2. list and 4. get: jobs with their pods, plus a 64-worker PyTorchJob.
if want 2 || want 4; then
"$here/seeds.sh" get "$work" "$get_workers" >/dev/null
start_sim list --no-controllers --generate "$list_gen" --seed "$work/get-seed.json"
K=$(sh_kc)
payload 2-list /apis/kubeflow.org/v1/pytorchjobs /apis/kubeflow.org/v2beta1/mpijobs \
  /apis/batch.volcano.sh/v1alpha1/jobs /api/v1/pods
if want 2; then
measure 2-list trainctl "$TRAINCTL" list -A
measure 2-list kubectl sh -c "$K get pytorchjobs.kubeflow.org,mpijobs.kubeflow.org,jobs.batch.volcano.sh -A -o json >/dev/null && $K get pods -A -o json"
fi
if want 4; then
payload 4-get /apis/kubeflow.org/v1/namespaces/default/pytorchjobs/bench-get \
  "/api/v1/namespaces/default/pods?labelSelector=training.kubeflow.org%2Fjob-name%3Dbench-get"
measure 4-get trainctl "$TRAINCTL" get bench-get -n default
measure 4-get kubectl "$KUBECTL" --cache-dir "$work/kcache" get pytorchjob bench-get -n default
measure 4-get-pair kubectl sh -c "$K get pytorchjob bench-get -n default >/dev/null && $K get pods -n default -l training.kubeflow.org/job-name=bench-get"
fi
fi

# 3. top node
if want 3; then
start_sim top --no-controllers --generate "$top_gen"
K=$(sh_kc)
sel="status.phase!=Failed,status.phase!=Succeeded"
payload 3-top /api/v1/nodes "/api/v1/pods?fieldSelector=status.phase%21%3DFailed%2Cstatus.phase%21%3DSucceeded"
measure 3-top trainctl "$TRAINCTL" top node
measure 3-top kubectl sh -c "$K get nodes -o json >/dev/null && $K get pods -A --field-selector '$sel' -o json"
fi

# 7. list -A over TrainJobs (their JobSets, Jobs and pods) against as many PyTorchJobs.
if want 7; then
start_sim pytorch --no-controllers --generate "$pytorch_gen"
K=$(sh_kc)
sel=training.kubeflow.org%2Fjob-name
payload 7-pytorch /apis/kubeflow.org/v1/pytorchjobs "/api/v1/pods?labelSelector=$sel"
measure 7-pytorch trainctl "$TRAINCTL" list -A
measure 7-pytorch kubectl sh -c "$K get pytorchjobs.kubeflow.org -A -o json >/dev/null && $K get pods -A -l training.kubeflow.org/job-name -o json"
start_sim trainjobs --no-controllers --generate "$trainjob_gen"
K=$(sh_kc)
sel=jobset.sigs.k8s.io%2Fjobset-name
payload 7-trainjobs /apis/trainer.kubeflow.org/v1alpha1/trainjobs "/api/v1/pods?labelSelector=$sel"
measure 7-trainjobs trainctl "$TRAINCTL" list -A
measure 7-trainjobs kubectl sh -c "$K get trainjobs.trainer.kubeflow.org -A -o json >/dev/null && $K get pods -A -l jobset.sigs.k8s.io/jobset-name -o json"
echo "$per_job" >"$work/stats/7.jobs"
stop_sim
fi

# 5. logs -f of a finished pod with LOG_LINES lines; 6. submit --dry-run
if want 5; then
"$here/seeds.sh" logs "$work" "$log_lines" >/dev/null
start_sim logs --seed "$work/logs-seed.json" --speed 1000000
K=$(sh_kc)
pod=bench-log-master-0
for ((i = 0; i < 600; i++)); do
  phase=$(kc get pod -n default "$pod" -o 'jsonpath={.status.phase}' 2>/dev/null || true)
  [ "$phase" = Succeeded ] && break
  sleep 0.5
done
[ "$phase" = Succeeded ] || { echo "bench: log pod did not finish (phase '$phase')" >&2; exit 1; }
payload 5-logs "/api/v1/namespaces/default/pods/$pod/log"
lines=$(kc logs -n default "$pod" | wc -l)
echo "bench: log of $pod has $lines lines" >&2
measure 5-logs trainctl "$TRAINCTL" logs -f bench-log -n default
measure 5-logs kubectl "$KUBECTL" --cache-dir "$work/kcache" logs -f -n default "$pod"
got=$("$TRAINCTL" logs -f bench-log -n default 2>/dev/null | wc -l || true)
[ "$got" = "$lines" ] || echo "bench: trainctl logs -f printed $got lines, kubectl $lines" >&2
stop_sim
fi

want 6 && measure 6-submit trainctl "$TRAINCTL" submit pytorch --dry-run --name=pytorch-dist --gpus=1 --workers=3 \
  --working-dir=/root \
  --image=registry.cn-beijing.aliyuncs.com/ai-samples/pytorch-with-tensorboard:1.5.1-cuda10.1-cudnn7-runtime \
  --sync-mode=git --sync-source=https://code.aliyun.com/370272561/mnist-pytorch.git \
  --data=training-data:/mnist_data --tensorboard --logdir=/mnist_data/pytorch_data/logs \
  "python /root/code/mnist-pytorch/mnist.py --epochs 10 --backend nccl --dir /mnist_data/pytorch_data/logs --data /mnist_data/pytorch_data/"

# --- table --------------------------------------------------------------------------------
"$here/table.sh" "$work/stats" "$scale $objects" "$runs"
