# Shared set-up of the integration tests that run against kubesim (sourced, not run): starts
# kubesim on 127.0.0.1 with the real schemas and a small GPU cluster, and defines helpers.
# Needs TRAINCTL, KUBESIM and SOURCE_DIR (set by CTest); exits 77 (skipped) without them or
# without the schemas.
# Set before sourcing:
#   KUBESIM_SEED=FILE          seed file instead of the small three-node cluster
#   KUBESIM_SPEED=X            simulated seconds per real second (default 20)
#   KUBESIM_SCHEMAS_OPTIONAL=1 run without schema validation when no schemas are found

source "$(dirname "${BASH_SOURCE[0]}")/skip.bash"
source "$(dirname "${BASH_SOURCE[0]}")/kubesim_start.bash"

if [[ -z "${TRAINCTL:-}" || -z "${KUBESIM:-}" || ! -x "${KUBESIM:-}" || ! -x "${TRAINCTL:-}" ]]; then
  skip_or_fail "TRAINCTL and KUBESIM must name the built binaries"
fi
SCHEMAS=$(schema_dir)
if [[ -z "$SCHEMAS" && -z "${KUBESIM_SCHEMAS_OPTIONAL:-}" ]]; then
  skip_or_fail "no Kubernetes schemas (set TRAINCTL_SCHEMAS or run scripts/fetch-schemas.sh)"
fi

WORK="$(mktemp -d)"
KCFG="$WORK/kubeconfig"
KUBESIM_PID=""
stop_kubesim() {
  if [[ -n "$KUBESIM_PID" ]]; then kill "$KUBESIM_PID" 2>/dev/null || true; wait "$KUBESIM_PID" 2>/dev/null || true; fi
  KUBESIM_PID=""
}
cleanup() {
  stop_kubesim
  rm -rf "$WORK"
}
trap cleanup EXIT

fail() {
  echo "FAIL: $*" >&2
  [[ -f "$WORK/kubesim.log" ]] && tail -n 20 "$WORK/kubesim.log" >&2
  exit 1
}

# start_kubesim [extra kubesim flags...]
start_kubesim() {
  stop_kubesim  # a script that starts another cluster leaves no kubesim behind
  local seed="${KUBESIM_SEED:-$WORK/cluster.yaml}"
  local schema_args=()
  [[ -n "$SCHEMAS" ]] && schema_args=(--schemas "$SCHEMAS")
  [[ -n "${KUBESIM_SEED:-}" ]] || cat >"$WORK/cluster.yaml" <<'YAML'
nodes:
  - {name: gpu-a, ip: 10.0.0.11, gpus: 8, cpu: "64", memory: 512Gi}
  - {name: gpu-b, ip: 10.0.0.12, gpus: 8, cpu: "64", memory: 512Gi}
  - {name: topo-a, ip: 10.0.0.21, gpus: 8, gpuResource: aliyun.com/gpu, cpu: "64", memory: 512Gi,
     labels: {ack.node.gpu.schedule: topology}}
namespaces: [default, team-a]
pvcs:
  - {name: training-data, namespace: default, accessModes: [ReadWriteMany], storage: 100Gi}
YAML
  # The log of an earlier start goes first: the background shell truncates it only once it runs,
  # and the wait below must not find the old "listening" line before that.
  rm -f "$WORK/kubesim.log"
  "$KUBESIM" --listen 127.0.0.1 --port 0 --kubeconfig-out "$KCFG" "${schema_args[@]}" --seed "$seed" \
    --speed "${KUBESIM_SPEED:-20}" "$@" >"$WORK/kubesim.log" 2>&1 &
  KUBESIM_PID=$!
  wait_for_kubesim "$WORK/kubesim.log" "$KUBESIM_PID" || fail "kubesim did not start: $(cat "$WORK/kubesim.log")"
}

tc() { "$TRAINCTL" --kubeconfig "$KCFG" "$@"; }

# The PyTorch job of seed 000's walk-through, as the seed prints it (with arena -> trainctl):
# `tc submit pytorch "${SEED000_PYTORCH[@]}"`, the command last.
SEED000_PYTORCH=(
  --name=pytorch-dist
  --gpus=1
  --workers=3
  --working-dir=/root
  --image=registry.cn-beijing.aliyuncs.com/ai-samples/pytorch-with-tensorboard:1.5.1-cuda10.1-cudnn7-runtime
  --sync-mode=git
  --sync-source=https://code.aliyun.com/370272561/mnist-pytorch.git
  --data=training-data:/mnist_data
  --tensorboard
  --logdir=/mnist_data/pytorch_data/logs
  "python /root/code/mnist-pytorch/mnist.py --epochs 10 --backend nccl --dir /mnist_data/pytorch_data/logs --data /mnist_data/pytorch_data/"
)

# expect_output NAME PATTERN: the last command's output (in $OUT) contains PATTERN.
expect_output() {
  grep -qF -- "$2" <<<"$OUT" || fail "$1: output lacks \"$2\":
$OUT"
}
