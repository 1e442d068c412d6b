#!/usr/bin/env bash
# Runs one libFuzzer binary for SECONDS over a copy of its seed corpus, so that nothing is
# ever written into the source tree. Exits non-zero on any crash, leak, timeout, out-of-memory
# or sanitizer report; the input that caused it is left in WORKDIR/artifacts/.
# Usage: run_fuzzer.sh FUZZER SEED_CORPUS_DIR WORKDIR SECONDS
set -euo pipefail
fuzzer=$1 seeds=$2 work=$3 seconds=$4

rm -rf "$work"
mkdir -p "$work/corpus" "$work/artifacts"
if [[ -d $seeds ]]; then
  cp -R "$seeds/." "$work/corpus/"
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# -jobs/-workers are left at 1: the fuzzers run one at a time.
"$fuzzer" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -max_len=65536 \
  -print_final_stats=1 -artifact_prefix="$work/artifacts/" "$work/corpus" 2>&1 | tee "$work/log.txt"
