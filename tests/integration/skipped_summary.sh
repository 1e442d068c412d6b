#!/usr/bin/env bash
# scripts/skipped-tests.sh, which ends scripts/test.sh: on a CTest run of a small project with a
# test that passes, one that fails and two that skip (exit 77 after "SKIPPED: reason", as
# tests/integration/skip.bash and tests/support/paths.cpp do), it names each skipped test with
# its reason and closes with the counts.
set -euo pipefail
source "$(dirname "$0")/skip.bash"
: "${SOURCE_DIR:?}"
command -v ctest >/dev/null || skip_or_fail "ctest not installed"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cat >"$tmp/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(toy NONE)
enable_testing()
add_test(NAME toy.pass COMMAND true)
add_test(NAME toy.fail COMMAND false)
add_test(NAME toy.no_kubectl COMMAND bash -c "echo 'SKIPPED: kubectl not found' >&2; exit 77")
add_test(NAME toy.silent COMMAND bash -c "exit 77")
set_tests_properties(toy.no_kubectl toy.silent PROPERTIES SKIP_RETURN_CODE 77)
CMAKE
cmake -S "$tmp" -B "$tmp/b" >/dev/null
ctest --test-dir "$tmp/b" >"$tmp/console.log" 2>&1 || true
OUT=$(bash "$SOURCE_DIR/scripts/skipped-tests.sh" "$tmp/b" "$tmp/console.log")
expected="skipped: toy.no_kubectl: kubectl not found
skipped: toy.silent: (no reason printed)
test.sh: 1 passed, 1 failed, 2 skipped"
[[ $OUT == "$expected" ]] || fail "skipped-tests.sh said:
$OUT"
echo "ok"
