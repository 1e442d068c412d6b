#!/usr/bin/env bash
# Peak RSS of `trainctl list -A -w` up to its first table, on the cluster of its target
# (docs/performance.md, "Fifth round"): 5,000 nodes, 10,000 jobs, 150,000 pods, without
# controllers, real-sized objects unless --objects lean. With BEFORE=<another trainctl>, that
# binary is measured too, runs alternating.
#
#   bench/live_memory.sh [--objects real|lean] [--runs N] [--build-dir DIR] [--keep]
#
# Environment: TRAINCTL, KUBESIM (use these binaries instead of building), BEFORE.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(dirname "$here")
objects=real runs=3 build="$src/build-bench" keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --objects) objects=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --build-dir) build=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,/^$/p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench: unknown argument $1" >&2; exit 2 ;;
  esac
done
case "$objects" in real|lean) ;; *) echo "bench: --objects must be real or lean" >&2; exit 2 ;; esac
source "$here/common.bash"

start_sim live --no-controllers --generate "nodes=5000,jobs=10000,pods=150000,objects=$objects"

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
  line="run $r ($objects): trainctl $(peak "$TRAINCTL") MB"
  [ -z "${BEFORE:-}" ] || line+=", before $(peak "$BEFORE") MB"
  echo "$line"
done
