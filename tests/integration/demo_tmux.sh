#!/usr/bin/env bash
# The README demo on a real terminal: scripts/demo.sh runs in a tmux pane (a TTY) with the
# built binaries, and the screen a newcomer reads is checked: the GPU table before and after,
# the submit message, the suggestion for a mistyped command, the job RUNNING (in colour, since
# this is a terminal), a GPU's utilisation sparkline (block elements, since its locale is
# UTF-8), the TensorBoard URL, each rank's own lines in logs --all, the PVC with its
# description and owner, a TrainJob on torch-distributed (runtime list, submit trainjob, list,
# get, logs), and the closing lines on how to go on and how to stop kubesim.
set -euo pipefail
source "$(dirname "$0")/skip.bash"
if [[ ! -x "${TRAINCTL:-}" || ! -x "${KUBESIM:-}" ]]; then
  skip_or_fail "TRAINCTL and KUBESIM must point to the built binaries"
fi
command -v tmux >/dev/null || skip_or_fail "tmux is not installed"
SOURCE_DIR=${SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}

work=$(mktemp -d)
sock="$work/tmux.sock"
cleanup() {
  TRAINCTL_DEMO_DIR="$work/demo" bash "$SOURCE_DIR/scripts/demo.sh" --stop >/dev/null 2>&1 || true
  tmux -S "$sock" kill-server 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; echo "--- screen"; cat "$work/screen.txt" 2>/dev/null; exit 1; }

tmux -S "$sock" new-session -d -x 160 -y 60 -s demo \
  "env -u NO_COLOR -u LC_ALL -u LC_CTYPE TERM=xterm-256color LANG=C.UTF-8 TRAINCTL_DEMO_BIN_DIR='$(dirname "$TRAINCTL")' TRAINCTL_DEMO_DIR='$work/demo' \
   bash '$SOURCE_DIR/scripts/demo.sh'; echo DEMO-EXIT=\$?; sleep 600"
tmux -S "$sock" set-option -t demo history-limit 5000 >/dev/null
for _ in $(seq 1 900); do
  tmux -S "$sock" capture-pane -p -J -S - -t demo >"$work/screen.txt"
  grep -q 'DEMO-EXIT=' "$work/screen.txt" && break
  sleep 0.1
done
grep -q 'DEMO-EXIT=0' "$work/screen.txt" || fail "the demo did not finish with exit code 0 within 90 s"

for want in \
  '$ trainctl doctor' \
  'Ready: trainctl submit pytorch can create PyTorchJobs in namespace default.' \
  'Allocated/Total GPUs In Cluster:' \
  '0/6 (0%)' \
  'The Job pytorch-dist has been submitted successfully' \
  'The Job pytorch-dist is running' \
  '3/6 (50%)' \
  'Your tensorboard will be available on:' \
  'pytorch-dist-worker-0' \
  '$ trainctl logs pytorch-dist -i pytorch-dist-worker-0 -t 5' \
  'loss=' \
  'error: unknown command "lst" for "trainctl"' \
  'Did you mean this?' \
  '$ trainctl logs pytorch-dist --all -t 2' \
  'training-data  ReadWriteMany  MNIST training and test images  ml-platform' \
  '$ trainctl runtime list' \
  'The Job mnist has been submitted successfully' \
  'The Job mnist is running' \
  'Trainer:     TRAINJOB' \
  '$ trainctl logs mnist -t 3' \
  'Stop it with: scripts/demo.sh --stop'; do
  grep -qF -- "$want" "$work/screen.txt" || fail "the screen lacks \"$want\""
done
grep -Eq '^pytorch-dist +RUNNING +PYTORCHJOB' "$work/screen.txt" || fail "list does not show pytorch-dist RUNNING"
# Kubeflow Trainer v2: the runtimes, and the TrainJob beside the PyTorchJob in list.
grep -Eq '^torch-distributed +ClusterTrainingRuntime +torch ' "$work/screen.txt" || fail "runtime list shows no torch-distributed"
grep -Eq '^mnist +RUNNING +TRAINJOB +[0-9]+[sm] +2 +2 ' "$work/screen.txt" || fail "list does not show the TrainJob mnist RUNNING"
grep -Eq '^[[:space:]]+list$' "$work/screen.txt" || fail "the typo lst does not suggest list"
# logs --all: each rank's own lines, prefixed with its replica; the ranks' losses differ.
for r in master-0 worker-0 worker-1; do
  grep -Eq "^\[$r\] Train Epoch: [0-9]+ \[[0-9]+/60000 \([0-9]+%\)\] loss=[0-9.]+ step=[0-9]+$" "$work/screen.txt" ||
    fail "logs --all shows no training line of $r"
done
losses=$(grep -E '^\[(master-0|worker-[01])\] Train Epoch' "$work/screen.txt" | sed 's/.* loss=\([0-9.]*\) .*/\1/' | sort -u | wc -l)
((losses >= 4)) || fail "logs --all shows the same losses on every rank ($losses distinct of 6)"
grep -Eq '^pytorch-dist-master-0 +Running +1 +[^ ]+ +[0-9] +[0-9]+\.[0-9]% +[0-9.]+/16384\.0\(MiB\)' "$work/screen.txt" ||
  fail "top job pytorch-dist shows no GPU utilisation"

# A UTF-8 terminal: each GPU's utilisation over the last minute as block elements, the
# busy profile's 70-99 % in the top three levels, with min/mean/max beside it.
LC_ALL=C.UTF-8 grep -Eq '^pytorch-dist-master-0 +[0-9] +[ ▆▇█]*[▆▇█] +[0-9]+\.[0-9]% +[0-9]+\.[0-9]% +[0-9]+\.[0-9]% +-$' \
  "$work/screen.txt" || fail "top job pytorch-dist --idle-window 1m shows no sparkline in block elements"

# On a terminal the status is coloured; the same command in a pipe has no escape codes.
tmux -S "$sock" capture-pane -p -e -J -S - -t demo >"$work/screen-esc.txt"
grep -q $'\e\\[[0-9;]*m *RUNNING\\|RUNNING\e\\[' "$work/screen-esc.txt" ||
  grep -q $'\e\\[[0-9;]*mRUNNING' "$work/screen-esc.txt" || fail "RUNNING is not coloured on the terminal"
echo "ok: the demo's screen holds the walk-through"
