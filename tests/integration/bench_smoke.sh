#!/usr/bin/env bash
# Runs the benchmark at its small scale with the binaries under test and checks that the
# table has a row for every scenario with numbers in it; then bench/memory.sh --quick, whose
# rows must list every generated job and give numbers. No timing assertions: the figures
# are for people (docs/performance.md), not for pass/fail. Skips (77) without kubectl.
set -euo pipefail
source "$(dirname "$0")/skip.bash"

: "${TRAINCTL:?set TRAINCTL to the trainctl binary}"
: "${KUBESIM:?set KUBESIM to the kubesim binary}"
SOURCE_DIR=${SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
command -v kubectl >/dev/null 2>&1 || skip_or_fail "kubectl not found"
command -v cc >/dev/null 2>&1 || skip_or_fail "no C compiler for bench/measure.c"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/table.txt
TRAINCTL=$TRAINCTL KUBESIM=$KUBESIM TMPDIR=$tmp \
  bash "$SOURCE_DIR/bench/run.sh" --scale small --runs 1 --build-dir "$tmp/build" >"$out" 2>"$tmp/log" || {
  echo "bench/run.sh failed:"; tail -30 "$tmp/log"; cat "$out"; exit 1; }
cat "$out"

fail=0
grep -q "scale small" "$out" || { echo "missing table title"; fail=1; }
for label in "1 start-up" "2 list -A" "3 top node" "4 get JOB (1 kubectl get)" "4 get JOB (kubectl job+pods)" \
             "5 logs -f" "6 submit --dry-run" "7 list -A (PyTorchJobs)" "7 list -A (TrainJobs)"; do
  line=$(grep -F "| $label" "$out" || true)
  if [ -z "$line" ]; then echo "no row for '$label'"; fail=1; continue; fi
  case "$line" in *FAIL*|*"run failed"*) echo "scenario failed: $line"; fail=1; continue ;; esac
  # Second column (trainctl wall ms) must be a number, except for the kubectl-only row.
  tw=$(echo "$line" | awk -F'|' '{ gsub(/ /, "", $3); print $3 }')
  kw=$(echo "$line" | awk -F'|' '{ gsub(/ /, "", $4); print $4 }')
  [[ "$tw" =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "no trainctl time in: $line"; fail=1; }
  case "$label" in
    6*) [ "$kw" = - ] || { echo "submit has no kubectl counterpart: $line"; fail=1; } ;;
    *) [[ "$kw" =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "no kubectl time in: $line"; fail=1; } ;;
  esac
done
grep -q "log of bench-log-master-0 has 2000[0-9] lines" "$tmp/log" || { echo "log pod did not have the expected lines"; grep "log of" "$tmp/log"; fail=1; }
grep -q "^7-trainjobs: payload / trainctl CPU = .* us CPU per job" "$out" || { echo "no CPU per TrainJob line"; fail=1; }
if grep -q "trainctl logs -f printed" "$tmp/log"; then grep "trainctl logs -f printed" "$tmp/log"; fail=1; fi

mem=$tmp/memory.txt
TRAINCTL=$TRAINCTL KUBESIM=$KUBESIM TMPDIR=$tmp \
  bash "$SOURCE_DIR/bench/memory.sh" --quick --runs 1 --build-dir "$tmp/build" >"$mem" 2>"$tmp/mlog" || {
  echo "bench/memory.sh failed:"; tail -30 "$tmp/mlog"; cat "$mem"; exit 1; }
cat "$mem"
rows=0
while IFS='|' read -r _ nodes jobs pods shown list_ms list_rss top_ms top_rss _; do
  [[ "${jobs// /}" =~ ^[0-9]+$ ]] || continue
  rows=$((rows + 1))
  [ "${shown// /}" = "${jobs// /}" ] || { echo "list showed $shown of $jobs jobs"; fail=1; }
  for v in "$list_ms" "$list_rss" "$top_ms" "$top_rss"; do
    [[ "${v// /}" =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "not a number: '$v'"; fail=1; }
  done
done <"$mem"
[ "$rows" = 4 ] || { echo "memory table has $rows rows, not 4"; fail=1; }
exit $fail
