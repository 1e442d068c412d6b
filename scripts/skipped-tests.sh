#!/usr/bin/env bash
# skipped-tests.sh BUILD_DIR CTEST_OUTPUT: what the last ctest run in BUILD_DIR did not run, and
# why: for each test CTest lists as "(Skipped)" in CTEST_OUTPUT (its console output), the
# "SKIPPED: reason" line the test printed (tests/integration/skip.bash,
# tests/support/paths.cpp), read from BUILD_DIR/Testing/Temporary/LastTest.log; then one
# closing line "test.sh: N passed, N failed, N skipped". Run by scripts/test.sh after the
# tests, so that a newcomer sees what did not run.
set -euo pipefail
build=$1 console=$2
log="$build/Testing/Temporary/LastTest.log"
mapfile -t skipped < <(sed -n 's/^[[:space:]]*[0-9]* - \(.*\) (Skipped)$/\1/p' "$console")
for t in "${skipped[@]}"; do
  reason=$(awk -v name="$t" '
    $0 ~ "^[0-9]+/[0-9]+ Test: " { inside = ($3 == name); output = 0; next }
    inside && /^Output:$/ { output = 1; next }
    inside && output && /^<end of output>$/ { exit }
    inside && output && /SKIPPED: / { sub(/.*SKIPPED: /, ""); print; exit }' "$log" 2>/dev/null || true)
  echo "skipped: $t: ${reason:-(no reason printed)}"
done
# "95% tests passed, 2 tests failed out of 40": CTest counts the skipped ones as passed.
read -r failed total < <(sed -n 's/^[0-9]*% tests passed, \([0-9]*\) tests* failed out of \([0-9]*\)$/\1 \2/p' "$console" |
  tail -n1) || true
if [ -z "${total:-}" ]; then
  echo "test.sh: no test ran"
  exit 0
fi
echo "test.sh: $((total - failed - ${#skipped[@]})) passed, $failed failed, ${#skipped[@]} skipped"
