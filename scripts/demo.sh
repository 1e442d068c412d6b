#!/usr/bin/env bash
# From a fresh clone to a running demo: installs what is missing, builds trainctl and
# kubesim, starts kubesim with a small GPU cluster (3 control-plane nodes, 3 nodes with
# 2 GPUs each, PVC training-data), writes a kubeconfig for it, and walks through a
# distributed PyTorch job: doctor, top node, submit, list (after a typo, to show the suggestion), top
# job (with GPU utilisation from the simulated Prometheus, and a sparkline of it per GPU), get,
# logs (one instance, then every rank's, prefixed), data list; then Kubeflow Trainer v2: runtime
# list, submit trainjob on torch-distributed, list, get, logs.
# kubesim keeps running afterwards; `scripts/demo.sh --stop` stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
state="${TRAINCTL_DEMO_DIR:-$root/build/demo}"

stop_kubesim() {
  if [ -f "$state/kubesim.pid" ] && kill -0 "$(cat "$state/kubesim.pid")" 2>/dev/null; then
    kill "$(cat "$state/kubesim.pid")" && echo "kubesim stopped"
  fi
  rm -f "$state/kubesim.pid"
}
if [ "${1:-}" = "--stop" ]; then stop_kubesim; exit 0; fi

bold=""; off=""
if [ -t 1 ]; then bold=$'\033[1m'; off=$'\033[0m'; fi
say() { printf '\n%s# %s%s\n' "$bold" "$*" "$off"; }
run() { printf '%s$ %s%s\n' "$bold" "$*" "$off"; "$@"; }

# TRAINCTL_DEMO_BIN_DIR: use trainctl and kubesim already built there (tests do).
bin="${TRAINCTL_DEMO_BIN_DIR:-$root/build}"
if [ -z "${TRAINCTL_DEMO_BIN_DIR:-}" ]; then
  say "Installing build dependencies (Debian packages) and building"
  scripts/install-deps.sh
  source scripts/build-config.sh
  cmake -S . -B build "${NORMAL_BUILD_ARGS[@]}" >/dev/null
  cmake --build build -j"$(nproc)" --target trainctl kubesim
fi
export PATH="$bin:$PATH"

say "Starting kubesim, a simulated Kubernetes cluster, on 127.0.0.1"
mkdir -p "$state"
stop_kubesim
rm -f "$state/kubeconfig"
# Kubeflow Trainer v2's default runtimes when they are beside the tree, else kubesim's own
# torch-distributed (docs/kubesim.md "Kubeflow Trainer v2 and JobSet").
runtimes=tools/kubesim/seeds/runtimes
[ -f ../shared/trainer-runtimes/torch_distributed.yaml ] && runtimes=../shared/trainer-runtimes
kubesim --port 0 --seed tools/kubesim/seeds/demo.yaml --kubeconfig-out "$state/kubeconfig" \
  --runtimes "$runtimes" --default-duration 10m --prometheus dcgm-exported >"$state/kubesim.log" 2>&1 &
echo $! >"$state/kubesim.pid"
for _ in $(seq 1 100); do [ -s "$state/kubeconfig" ] && break; sleep 0.1; done
[ -s "$state/kubeconfig" ] || { echo "kubesim did not start; see $state/kubesim.log" >&2; exit 1; }
export KUBECONFIG="$state/kubeconfig"
echo "kubeconfig: $KUBECONFIG"

say "0. Can this cluster run my job? What works here, what does not, and the fix"
run trainctl doctor

say "1. Which GPUs are there?"
run trainctl top node

say "2. Submit a PyTorch job: 3 workers (the master counts), 1 GPU each, code from git, data from a PVC, TensorBoard"
run trainctl submit pytorch \
  --name=pytorch-dist \
  --gpus=1 \
  --workers=3 \
  --working-dir=/root \
  --image=registry.cn-beijing.aliyuncs.com/ai-samples/pytorch-with-tensorboard:1.5.1-cuda10.1-cudnn7-runtime \
  --sync-mode=git \
  --sync-source=https://code.aliyun.com/370272561/mnist-pytorch.git \
  --data=training-data:/mnist_data \
  --tensorboard \
  --logdir=/mnist_data/pytorch_data/logs \
  --wait \
  "python /root/code/mnist-pytorch/mnist.py --epochs 10 --backend nccl --dir /mnist_data/pytorch_data/logs --data /mnist_data/pytorch_data/"

say "3. The jobs in the namespace (a mistyped command gets a suggestion, as kubectl's do)"
run trainctl lst || true
run trainctl list

say "4. GPUs per job, and per node; each GPU's utilisation and memory, from the cluster's Prometheus"
run trainctl top job
run trainctl top node
sleep 5  # a few scrapes of the simulated DCGM exporter (every 15 simulated seconds)
say "   ... and each GPU's utilisation over the last minute, a sparkline per GPU (query_range)"
run trainctl top job pytorch-dist --idle-window 1m

say "5. One job in detail"
run trainctl get pytorch-dist

say "6. Logs: the master (rank 0) by default, a worker with -i, the last lines with -t; every rank's with --all"
sleep 3
run trainctl logs pytorch-dist -t 5
run trainctl logs pytorch-dist -i pytorch-dist-worker-0 -t 5
run trainctl logs pytorch-dist --all -t 2

say "7. The volumes jobs can mount with --data, with the description and owner their annotations give"
run trainctl data list

say "8. Kubeflow Trainer v2: the cluster's training runtimes, and a TrainJob on torch-distributed"
run trainctl runtime list
run trainctl submit trainjob --name=mnist --runtime=torch-distributed --workers=2 --gpus=1 --wait \
  "torchrun /workspace/mnist.py --epochs 3"
run trainctl list
run trainctl get mnist
sleep 2
run trainctl logs mnist -t 3

say "kubesim is still running (pid $(cat "$state/kubesim.pid")). Try more:"
echo "  export PATH=\"$bin:\$PATH\" KUBECONFIG=\"$KUBECONFIG\""
echo "  trainctl logs pytorch-dist -f        # follow the master's log"
echo "  kubectl get pods                     # any kubectl works against kubesim too"
echo "Stop it with: scripts/demo.sh --stop"
