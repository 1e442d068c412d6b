#!/usr/bin/env bash
# Pages computed ahead and thrown away under a write load (docs/performance.md, "Pages computed
# ahead"). kubesim serves a generated cluster without controllers; a writer patches one
# ConfigMap RATE times a second (0: no writes) while `trainctl top node` and `trainctl list -A`
# walk their lists RUNS times each. kubesim's counters (GET /kubesim/page-ahead), read before
# and after, tell the pages computed ahead, those answered from there, those thrown away
# (stale: the store was written since; unasked) and those not computed ahead (skipped).
#
#   bench/page_ahead.sh [--scale small|full] [--rate N]... [--runs N] [--build-dir DIR] [--keep]
#
# Environment: TRAINCTL, KUBESIM (use these binaries instead of building).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(dirname "$here")
scale=small build="$src/build-bench" keep=0 runs=3 rates=()
while [ $# -gt 0 ]; do
  case "$1" in
    --scale) scale=$2; shift 2 ;;
    --rate) rates+=("$2"); shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --build-dir) build=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ ${#rates[@]} -gt 0 ] || rates=(0 20 200)
case "$scale" in
  small) gen=nodes=200,jobs=500,pods=3000 ;;
  full) gen=nodes=5000,jobs=10000,pods=40000 ;;
  *) echo "bench: --scale must be small or full" >&2; exit 2 ;;
esac
source "$here/common.bash"

start_sim ahead --no-controllers --generate "$gen"
counters() { kubectl get --raw /kubesim/page-ahead; }
# store_rv: the store's resourceVersion (every write moves it; nothing but the writer writes).
store_rv() { kubectl get --raw '/api/v1/namespaces/default/configmaps?limit=1' | python3 -c 'import json, sys; print(json.load(sys.stdin)["metadata"]["resourceVersion"])'; }

# writer RATE: patches ConfigMap default/bench-writer RATE times a second until killed.
writer() {
  exec /usr/bin/python3 - "$1" <<'PY'
import sys, time
from kubernetes import client, config
rate = float(sys.argv[1])
config.load_kube_config()
api = client.CoreV1Api()
name, ns = "bench-writer", "default"
try:
    api.create_namespaced_config_map(ns, {"metadata": {"name": name}, "data": {"n": "0"}})
except client.exceptions.ApiException:
    pass
n, t0 = 0, time.monotonic()
while True:
    n += 1
    api.patch_namespaced_config_map(name, ns, {"data": {"n": str(n)}})
    wait = t0 + n / rate - time.monotonic()
    if wait > 0:
        time.sleep(wait)
PY
}

printf '| writes/s | trainctl runs | pages computed ahead | answered from there | thrown away: stale | unasked | not computed (skipped) | writes made |\n'
printf '|---|---|---|---|---|---|---|---|\n'
for rate in "${rates[@]}"; do
  wpid=""
  if [ "$rate" != 0 ]; then
    writer "$rate" &
    wpid=$!
    sleep 2
  fi
  rv0=$(store_rv)
  before=$(counters)
  for ((r = 0; r < runs; r++)); do
    "$TRAINCTL" top node >/dev/null 2>&1  # no Prometheus here: one line about GPU metrics
    "$TRAINCTL" list -A >/dev/null
  done
  after=$(counters)
  rv1=$(store_rv)
  if [ -n "$wpid" ]; then kill "$wpid"; wait "$wpid" 2>/dev/null || true; fi
  python3 - "$before" "$after" "$rate" "$runs" "$rv0" "$rv1" <<'PY'
import json, sys
b, a = json.loads(sys.argv[1]), json.loads(sys.argv[2])
d = {k: a[k] - b[k] for k in a}
print(f"| {sys.argv[3]} | {int(sys.argv[4]) * 2} | {d['computed']} | {d['served']} | {d['stale']} | {d['unasked']} | {d['skipped']} | {int(sys.argv[6]) - int(sys.argv[5])} |")
PY
done
