#!/usr/bin/env bash
# An elastic PyTorchJob through the real binary: --dry-run prints the golden manifest
# (tests/golden/submit/pytorch_elastic.yaml) without a cluster, and each refused combination
# exits 2 with one line on stderr.
set -euo pipefail
source "$(dirname "$0")/skip.bash"
[[ -n "${TRAINCTL:-}" && -x "${TRAINCTL:-}" && -n "${SOURCE_DIR:-}" ]] ||
  skip_or_fail "TRAINCTL and SOURCE_DIR must be set"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
run() { KUBECONFIG=/nonexistent/kubeconfig HOME="$WORK" TRAINCTL_CONFIG= "$TRAINCTL" "$@"; }

run submit pytorch --name=elastic-imagenet --image=pytorch/pytorch:2.3 --min-workers=2 --max-workers=4 \
  --workers=3 --max-restarts=3 --rdzv-port=29400 --gpus=1 --nproc-per-node=gpu --gang --tensorboard \
  --data=imagenet:/data --dry-run "torchrun imagenet.py --arch=resnet18 --epochs=20 /data/imagenet" \
  >"$WORK/out.yaml" 2>"$WORK/err" || fail "elastic dry-run: $(cat "$WORK/err")"
cmp -s "$WORK/out.yaml" "$SOURCE_DIR/tests/golden/submit/pytorch_elastic.yaml" ||
  fail "dry-run differs from the golden manifest: $(diff "$WORK/out.yaml" "$SOURCE_DIR/tests/golden/submit/pytorch_elastic.yaml")"

# refused EXPECTED_TEXT ARGS...: exit code 2 and one line containing EXPECTED_TEXT.
refused() {
  local want="$1" rc=0
  shift
  run "$@" --dry-run >/dev/null 2>"$WORK/err" || rc=$?
  [[ $rc -eq 2 ]] || fail "$* exited $rc, not 2: $(cat "$WORK/err")"
  [[ $(wc -l <"$WORK/err") -eq 1 ]] || fail "$*: not one line: $(cat "$WORK/err")"
  grep -qF -- "$want" "$WORK/err" || fail "$*: stderr lacks \"$want\": $(cat "$WORK/err")"
}
refused "--workers 1 is outside --min-workers 2 to --max-workers 4" \
  submit pytorch --name=e --image=i --min-workers=2 --max-workers=4 "torchrun x.py"
refused "must start torchrun" submit pytorch --name=e --image=i --min-workers=1 "python x.py"
refused "--min-workers needs the training-operator" \
  submit pytorch --name=e --image=i --operator=none --min-workers=1 "torchrun x.py"
refused "--max-workers is only for submit pytorch" submit mpi --name=e --image=i --max-workers=2 "mpirun x"
refused "--min-workers is only for submit pytorch" submit volcano --name=e --image=i --min-workers=1 "x"
echo "ok"
