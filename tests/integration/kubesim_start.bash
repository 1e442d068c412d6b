# Sourced by the integration scripts that start kubesim (kubesim_env.bash and the scripts that
# start it themselves).

# schema_dir: prints the directory of the real CRDs and OpenAPI documents, or nothing:
# $TRAINCTL_SCHEMAS, then ../shared/k8s-schemas beside the source tree, then the cache that
# scripts/fetch-schemas.sh fills (as tests/support/paths.cpp looks for them).
schema_dir() {
  local d
  for d in "${TRAINCTL_SCHEMAS:-}" "${SOURCE_DIR:-.}/../shared/k8s-schemas" "$HOME/.cache/trainctl/k8s-schemas"; do
    [[ -n "$d" && -d "$d/crds" ]] && { echo "$d"; return; }
  done
  return 0  # none found: the caller skips, or fails under CI=true (not `set -e` on this test)
}

# trainer_runtimes_dir: prints the directory of Kubeflow Trainer v2.3.0's default runtimes, or
# nothing: $TRAINCTL_TRAINER_RUNTIMES, ../shared/trainer-runtimes beside the source tree, then the
# cache scripts/fetch-schemas.sh fills (as tests/support/paths.cpp looks for them).
trainer_runtimes_dir() {
  local d
  for d in "${TRAINCTL_TRAINER_RUNTIMES:-}" "${SOURCE_DIR:-.}/../shared/trainer-runtimes" \
    "$HOME/.cache/trainctl/trainer-runtimes"; do
    [[ -n "$d" && -f "$d/torch_distributed.yaml" ]] && { echo "$d"; return; }
  done
  return 0
}

# wait_for_kubesim LOG PID: returns 0 once kubesim's LOG says "listening" (it has written its
# --kubeconfig-out file before that line), 1 when PID exits first or KUBESIM_START_TIMEOUT
# seconds pass (default 180: a sanitizer build on a loaded machine took more than 60 s to load
# the schemas; the wait ends as soon as kubesim listens).
wait_for_kubesim() {
  local log=$1 pid=$2 deadline=$((SECONDS + ${KUBESIM_START_TIMEOUT:-180}))
  while ((SECONDS < deadline)); do
    grep -q listening "$log" 2>/dev/null && return 0
    kill -0 "$pid" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

# require_trainer_runtimes: sets RUNTIMES to Kubeflow Trainer's shipped runtimes, or skips the
# test (CI=true: fails) when none is found.
require_trainer_runtimes() {
  RUNTIMES=$(trainer_runtimes_dir)
  [[ -n "$RUNTIMES" ]] || skip_or_fail "no Kubeflow Trainer runtimes (../shared/trainer-runtimes, or run scripts/fetch-schemas.sh)"
}
