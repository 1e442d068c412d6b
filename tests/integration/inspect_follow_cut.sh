#!/usr/bin/env bash
# logs -f survives a cut stream: kubesim cuts the first two log streams of the master after
# a few lines; trainctl reconnects and resumes, and every line of the log is printed exactly
# once (the kubelet numbers its training lines with step=N).
set -euo pipefail
SOURCE_DIR=${SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
KUBESIM_SPEED=1 KUBESIM_SCHEMAS_OPTIONAL=1
source "$(dirname "$0")/kubesim_env.bash"
cat >"$WORK/faults.yaml" <<'YAML'
- {method: GET, path: "/pods/cut-job-master-0/log$", first: 2, action: cut, lines: 2}
YAML
start_kubesim --faults "$WORK/faults.yaml" --default-duration 12s

tc submit pytorch --name=cut-job --workers=1 --image=pytorch/pytorch "python train.py" >/dev/null ||
  fail "submit failed"
OUT=$(tc --loglevel debug logs cut-job -f 2>"$WORK/follow.err") || fail "logs -f failed: $(cat "$WORK/follow.err")"
FULL=$(tc logs cut-job) || fail "logs after the end failed"

[[ "$OUT" == "$FULL" ]] || fail "logs -f across cuts differs from the whole log:
--- logs -f
$OUT
--- logs
$FULL"
steps=$(grep -o 'step=[0-9]*' <<<"$OUT" | cut -d= -f2)
n=$(wc -l <<<"$steps")
(( n >= 5 )) || fail "expected at least 5 numbered lines, got $n:
$OUT"
prev=""
while read -r s; do
  if [[ -n "$prev" && "$s" -ne $((prev + 1)) ]]; then fail "step $s follows step $prev: a line was lost or doubled"; fi
  prev=$s
done <<<"$steps"
grep -q 'accuracy=' <<<"$OUT" || fail "logs -f stopped before the end of the log"
streams=$(grep -c 'GET .*/pods/cut-job-master-0/log' "$WORK/follow.err" || true)
(( streams >= 3 )) || fail "expected logs -f to open the stream at least 3 times (2 cuts), saw $streams:
$(cat "$WORK/follow.err")"
echo "ok: $n numbered lines, each once, over $streams log streams"
