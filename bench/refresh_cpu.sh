#!/usr/bin/env bash
# trainctl's CPU per refresh of `top node -r 1` (docs/performance.md, "Live views"): on the top
# node cluster of bench/run.sh (5,000 nodes, 10,000 jobs, 150,000 pods), a Running pod is
# patched 5 times a second for 30 s, so that every 1 s refresh has a pod event to fold in; the
# view's CPU (/proc/PID/stat) over that time is divided by the refreshes that had changes (its
# -vv log: "N changes in 1s").
#
#   bench/refresh_cpu.sh [--build-dir DIR] [--keep]
#
# Environment: TRAINCTL, KUBESIM (use these binaries instead of building).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(dirname "$here")
build="$src/build-bench" keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --build-dir) build=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    *) echo "bench: unknown argument $1" >&2; exit 2 ;;
  esac
done
source "$here/common.bash"
start_sim pr --no-controllers --generate nodes=5000,jobs=10000,pods=150000
tick=$(getconf CLK_TCK)
cpu() { awk -v t="$tick" '{print int(($14 + $15) * 1000 / t)}' "/proc/$1/stat"; }
"$TRAINCTL" -vv top node -r 1 >"$work/top.out" 2>"$work/top.err" &
tp=$!
until [ "$(grep -c '^NAME' "$work/top.out" 2>/dev/null || true)" -ge 1 ] 2>/dev/null; do sleep 0.5; done
sleep 3
pod=$(kubectl get --raw '/api/v1/pods?fieldSelector=spec.nodeName%21%3D,status.phase%3DRunning&limit=1' | /usr/bin/python3 -c 'import json,sys; m=json.load(sys.stdin)["items"][0]["metadata"]; print(m["namespace"] + "/" + m["name"])')
# _preload_content=False: the generated lean pods lack fields the client's models require.
/usr/bin/python3 - "$pod" <<'PY' &
import sys, time
from kubernetes import client, config
config.load_kube_config(); api = client.CoreV1Api()
ns, name = sys.argv[1].split("/")
t0 = time.monotonic(); n = 0
while time.monotonic() - t0 < 30:
    n += 1
    api.patch_namespaced_pod(name, ns, {"metadata": {"annotations": {"bench/n": str(n)}}}, _preload_content=False)
    time.sleep(max(0, t0 + n / 5 - time.monotonic()))
PY
wp=$!
c0=$(cpu $tp) r0=$(grep -cE '[1-9][0-9]* changes in' "$work/top.err" || true)
wait $wp || true
c1=$(cpu $tp) r1=$(grep -cE '[1-9][0-9]* changes in' "$work/top.err" || true)
kill $tp; wait $tp 2>/dev/null || true
echo "$TRAINCTL: $((c1 - c0)) ms CPU over $((r1 - r0)) refreshes: $(awk -v a=$((c1 - c0)) -v b=$((r1 - r0)) 'BEGIN{printf "%.1f", a / b}') ms a refresh"
