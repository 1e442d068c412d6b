#!/usr/bin/env bash
# Peak RSS of `trainctl list -A` and of `list -A -w` up to its first full table, with glibc's
# default number of malloc arenas and with one (MALLOC_ARENA_MAX=1, as mallopt(M_ARENA_MAX, 1)
# would set; docs/performance.md, "The allocator"). The same binary both ways; runs alternate.
# trainctl sets mallopt(M_ARENA_MAX, 1) itself (lib/core/allocator.cpp), which the environment
# cannot lift: for the default side, give TRAINCTL a build without that line.
#
#   bench/arena.sh [--gen nodes=N,jobs=N,pods=N] [--runs N] [--build-dir DIR] [--keep]
#
# Environment: TRAINCTL, KUBESIM (use these binaries instead of building).
set -euo pipefail
source "$(dirname "$0")/gen_args.bash"
source "$here/common.bash"

start_sim arena --no-controllers --generate "$gen"
jobs_in=$(sed -n 's/.*generated [0-9]* nodes, \([0-9]*\) jobs.*/\1/p' "$work/arena.out")

# watch_once STATS ARENAS: `list -A -w` until its table has every job, then SIGTERM; one line
# of measure's stats.
watch_once() {
  local out=$work/watch.out t0=$SECONDS pid child
  env ${2:+MALLOC_ARENA_MAX=$2} "$MEASURE" "$1" "$TRAINCTL" list -A -w >"$out" 2>&1 &
  pid=$!
  until [ "$(grep -c . "$out" 2>/dev/null || true)" -gt "$jobs_in" ] 2>/dev/null; do
    if ! kill -0 "$pid" 2>/dev/null || [ $((SECONDS - t0)) -gt 600 ]; then echo "bench: list -w ended early" >&2; break; fi
    sleep 0.5
  done
  sleep 1
  child=$(pgrep -P "$pid" || true)
  [ -z "$child" ] || kill -TERM "$child"  # a background job ignores SIGINT
  wait "$pid" || true
}

: >"$work/stats/with.list" ; : >"$work/stats/without.list"; : >"$work/stats/with.watch"; : >"$work/stats/without.watch"
for ((r = 0; r < runs; r++)); do
  MALLOC_ARENA_MAX=1 "$MEASURE" "$work/stats/with.list" "$TRAINCTL" list -A >/dev/null
  "$MEASURE" "$work/stats/without.list" "$TRAINCTL" list -A >/dev/null
  watch_once "$work/stats/with.watch" 1
  watch_once "$work/stats/without.watch" ""
done
echo "peak RSS in MB of $runs runs each ($gen; wall in s)"
echo '| | list -A RSS | list -A wall | list -A -w RSS | list -A -w wall |'
echo '|---|---|---|---|---|'
for v in with without; do
  printf '| %s | %s | %s | %s | %s |\n' "$([ $v = with ] && echo 'one arena' || echo "glibc's default")" \
    "$(awk '{ printf "%s%.1f", sep, $4 / 1024; sep = ", " }' "$work/stats/$v.list")" \
    "$(awk '{ printf "%s%.0f", sep, $1 / 1000; sep = ", " }' "$work/stats/$v.list")" \
    "$(awk '{ printf "%s%.1f", sep, $4 / 1024; sep = ", " }' "$work/stats/$v.watch")" \
    "$(awk '{ printf "%s%.0f", sep, $1 / 1000; sep = ", " }' "$work/stats/$v.watch")"
done
