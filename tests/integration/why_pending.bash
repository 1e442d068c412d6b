# Sourced by the tests of get's explanation of a pending job (why_pending*.sh), after
# kubesim_env.bash: the namespace whose quota refuses pods, and helpers.

# Seed lines: namespaces default and capped; capped's ResourceQuota allows 1 GPU, so that an
# operator's pod creates beyond it are refused (kube-apiserver's "exceeded quota").
CAPPED_SEED='namespaces: [default, capped]
objects:
  - apiVersion: v1
    kind: ResourceQuota
    metadata: {name: gpu-quota, namespace: capped}
    spec: {hard: {requests.nvidia.com/gpu: "1"}}'

# wait_reason JOB TEXT [get flags...]: get JOB until its output has TEXT (the scheduler and the
# operators need a few simulated seconds); prints that output.
wait_reason() {
  local job=$1 text=$2 out=""
  shift 2
  for _ in $(seq 1 60); do
    out=$(tc get "$job" "$@" 2>&1) || true
    grep -qF -- "$text" <<<"$out" && { echo "$out"; return 0; }
    sleep 0.5
  done
  fail "get $job never said '$text': $out"
}

# submit ARGS...: trainctl submit, quietly; the test fails with submit's output when it fails.
submit() { tc submit "$@" >/dev/null 2>&1 || fail "submit $*: $(tc submit "$@" 2>&1)"; }
