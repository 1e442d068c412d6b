# Sourced by the integration tests. skip_or_fail REASON: a test that cannot run on this
# machine is skipped (exit 77, which CTest reports as skipped), except in CI (CI=true), where
# every tool, client and schema must be present and a missing one fails the test.
skip_or_fail() {
  if [[ "${CI:-}" == "true" ]]; then
    echo "FAIL: $1 (CI=true: nothing may be skipped)" >&2
    exit 1
  fi
  echo "SKIPPED: $1" >&2
  exit 77
}
