#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan+UBSan, build-fuzz/) if needed and runs each one,
# one after the other, for SECONDS (default 60) over a copy of its seed corpus in
# fuzz/corpus/<name>/. Prints executions and the result per target; exits 1 if any target
# found a crash, leak, timeout or sanitizer report (its input is kept under
# BUILD_DIR/fuzz-work/<name>/artifacts/, its log in .../log.txt).
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]     env: BUILD_DIR (default build-fuzz)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
shift || true
build=${BUILD_DIR:-$root/build-fuzz}

if [[ $# -gt 0 ]]; then
  targets=("$@")
else
  targets=()
  for src in "$root"/fuzz/*.cpp; do targets+=("$(basename "$src" .cpp)"); done
fi

if [[ ! -f $build/CMakeCache.txt ]]; then
  CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Debug \
    -DTRAINCTL_SANITIZE=ON -DTRAINCTL_FUZZ=ON -DTRAINCTL_WERROR=OFF >/dev/null
fi
make -C "$build" -j"${JOBS:-2}" "${targets[@]/#/fuzz_}" >/dev/null

failed=0
printf '%-14s %8s %12s %10s  %s\n' TARGET SECONDS EXECUTIONS CORPUS RESULT
for t in "${targets[@]}"; do
  work=$build/fuzz-work/$t
  if bash "$root/fuzz/run_fuzzer.sh" "$build/fuzz_$t" "$root/fuzz/corpus/$t" "$work" "$seconds" \
    >/dev/null 2>&1; then
    result=ok
  else
    result="FAILED (see $work/log.txt and $work/artifacts/)"
    failed=1
  fi
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log.txt" | tail -1)
  # A run that stopped on a finding prints no final stats: take its last progress line.
  [[ -n $execs ]] || execs=$(sed -n 's/^#\([0-9][0-9]*\).*/\1/p' "$work/log.txt" | tail -1)
  corpus=$(find "$work/corpus" -type f | wc -l)
  printf '%-14s %8s %12s %10s  %s\n' "$t" "$seconds" "${execs:-?}" "$corpus" "$result"
done
exit $failed
