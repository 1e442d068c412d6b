#!/usr/bin/env bash
# Peak RSS of `trainctl list -A -w` up to its first table, on the cluster of its target
# (docs/performance.md, "Fifth round"): 5,000 nodes, 10,000 jobs, 150,000 real-sized pods,
# without controllers (--gen ...,objects=lean: the lean cluster). With BEFORE=<another
# trainctl>, that binary is measured too, runs alternating.
#
#   bench/live_memory.sh [--gen GENERATE] [--runs N] [--build-dir DIR] [--keep]
#
# Environment: TRAINCTL, KUBESIM (use these binaries instead of building), BEFORE.
set -euo pipefail
gen=nodes=5000,jobs=10000,pods=150000,objects=real
source "$(dirname "$0")/gen_args.bash"
source "$here/common.bash"

start_sim live --no-controllers --generate "$gen"

# peak BINARY: its VmHWM in MB once `list -A -w` printed its table's header, and 1 s after.
peak() {
  local out=$work/watch.out pid t0=$SECONDS mb
  : >"$out"
  "$1" list -A -w >"$out" 2>&1 &
  pid=$!
  until grep -q '^NAME' "$out"; do
    if ! kill -0 "$pid" 2>/dev/null || [ $((SECONDS - t0)) -gt 600 ]; then
      echo "bench: list -A -w ended early: $(head -c 300 "$out")" >&2; exit 1
    fi
    sleep 0.05
  done
  sleep 1
  mb=$(awk '/VmHWM/ {printf "%.1f", $2 / 1024}' "/proc/$pid/status")
  kill -TERM "$pid"; wait "$pid" 2>/dev/null || true
  echo "$mb"
}

for ((r = 1; r <= runs; r++)); do
  line="run $r: trainctl $(peak "$TRAINCTL") MB"
  [ -z "${BEFORE:-}" ] || line+=", before $(peak "$BEFORE") MB"
  echo "$line"
done
