#!/usr/bin/env bash
# `logs -f` against kubesim: it follows the chief until the pod ends and its exit status
# tells the outcome (0 when the pod succeeded, 5 when it failed); `get` then shows the
# finished status with an EndTime.
set -euo pipefail
source "$(dirname "$0")/skip.bash"
source "$(dirname "$0")/kubesim_start.bash"

if [[ ! -x "${TRAINCTL:-}" || ! -x "${KUBESIM:-}" ]]; then
  skip_or_fail "TRAINCTL and KUBESIM must point to the built binaries"
fi
SOURCE_DIR=${SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT

# start_kubesim NAME OUTCOME: a demo cluster whose containers run 3 s and then OUTCOME.
start_kubesim() {
  "$KUBESIM" --listen 127.0.0.1 --port 0 --kubeconfig-out "$tmp/$1.kubeconfig" \
    --seed "$SOURCE_DIR/tools/kubesim/seeds/demo.yaml" --default-duration 3s --default-outcome "$2" \
    >"$tmp/$1.log" 2>&1 &
  pids+=($!)
  wait_for_kubesim "$tmp/$1.log" "${pids[-1]}" && return 0
  echo "kubesim did not start"; cat "$tmp/$1.log"; exit 1
}

fail() { echo "FAIL: $*"; exit 1; }

for outcome in succeed fail; do
  start_kubesim "$outcome" "$outcome"
  t() { "$TRAINCTL" --kubeconfig "$tmp/$outcome.kubeconfig" "$@"; }
  t submit pytorch --name=follow-me --gpus=1 --workers=2 --image=pytorch/pytorch:2.1 "python train.py" >/dev/null
  # Wait until the chief exists, then follow it to the end.
  for _ in $(seq 100); do t logs follow-me >/dev/null 2>&1 && break; sleep 0.1; done
  set +e
  timeout 120 "$TRAINCTL" --kubeconfig "$tmp/$outcome.kubeconfig" logs -f follow-me >"$tmp/$outcome.out" 2>"$tmp/$outcome.err"
  rc=$?
  set -e
  want=0
  [[ $outcome == fail ]] && want=5
  [[ $rc == "$want" ]] || { cat "$tmp/$outcome.err"; fail "logs -f exited $rc for a pod that should $outcome (want $want)"; }
  [[ -s "$tmp/$outcome.out" ]] || fail "logs -f printed nothing"
  # No line is printed twice in a row by a reconnect, and no timestamps leak in.
  if grep -Eq '^[0-9]{4}-[0-9]{2}-[0-9]{2}T' "$tmp/$outcome.out"; then fail "timestamps in the output"; fi
  status=SUCCEEDED
  [[ $outcome == fail ]] && status=FAILED
  for _ in $(seq 100); do t get follow-me | grep -q "^Status:      $status$" && break; sleep 0.1; done
  get=$(t get follow-me)
  grep -q "^Status:      $status$" <<<"$get" || { echo "$get"; fail "get does not show $status"; }
  grep -Eq '^EndTime:     [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$' <<<"$get" || { echo "$get"; fail "no EndTime"; }
done
echo "ok: logs -f follows to the end and reports the outcome"
