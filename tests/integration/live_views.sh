#!/usr/bin/env bash
# Live views from one list and then watches: list -w prints the list, then one row per job
# that changes (a new job, a deleted one marked DELETED); top node -r and top job -r print a
# view again when it changed; a watch answered with 410 Expired lists that collection again
# (and only it) and watches on.
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"

start_kubesim --default-outcome run-forever
OUT=$(tc submit pytorch --name=first --gpus=1 --image=pytorch/pytorch:2.3 "python train.py" 2>&1) ||
  fail "submit first: $OUT"

# list -w: SIGINT after the changes; its output is what it printed until then.
(timeout -s INT 8 "$TRAINCTL" --kubeconfig "$KCFG" list -w >"$WORK/list-w.txt" 2>"$WORK/list-w.err" || true) &
view=$!
sleep 2
OUT=$(tc submit pytorch --name=second --gpus=2 --workers=2 --image=pytorch/pytorch:2.3 "python train.py" 2>&1) ||
  fail "submit second: $OUT"
sleep 2
OUT=$(tc delete first 2>&1) || fail "delete first: $OUT"
wait "$view"
OUT=$(cat "$WORK/list-w.txt")
[[ $(head -1 <<<"$OUT") =~ ^NAME\ +STATUS\ +TRAINER\ +DURATION\ +GPU\(Requested\)\ +GPU\(Allocated\)\ +NODE$ ]] ||
  fail "list -w header: $OUT"
grep -Eq '^first +(PENDING|RUNNING) ' <<<"$(sed -n 2p "$WORK/list-w.txt")" || fail "list -w first row: $OUT"
grep -Eq '^second +(PENDING|RUNNING) +PYTORCHJOB ' <<<"$OUT" || fail "list -w lacks the new job: $OUT"
grep -Eq '^second +RUNNING +PYTORCHJOB +[^ ]+ +4 ' <<<"$OUT" || fail "list -w does not see second run: $OUT"
grep -Eq '^first +DELETED +PYTORCHJOB ' <<<"$OUT" || fail "list -w lacks the deletion: $OUT"
[[ $(grep -c '^NAME' <<<"$OUT") -eq 1 ]] || fail "list -w printed the header again: $OUT"

# top node -r 1: the allocation before and after a job, each state printed once.
(timeout -s INT 6 "$TRAINCTL" --kubeconfig "$KCFG" top node -r 1 --loglevel debug \
  >"$WORK/top.txt" 2>"$WORK/top.err" || true) &
view=$!
sleep 2
OUT=$(tc submit pytorch --name=third --gpus=4 --image=pytorch/pytorch:2.3 "python train.py" 2>&1) ||
  fail "submit third: $OUT"
wait "$view"
OUT=$(cat "$WORK/top.txt")
mapfile -t totals < <(grep -A1 '^Allocated/Total GPUs In Cluster:' "$WORK/top.txt" | grep -E '^[0-9]+/')
[[ ${#totals[@]} -ge 2 && ${totals[0]} == "4/24 (16%)" && ${totals[-1]} == "8/24 (33%)" ]] ||
  fail "top node -r: allocation went ${totals[*]}: $OUT"
# Two lists at the start (nodes, pods), never again; each refresh is the watches' events.
grep -q 'so far 2 lists, 2 watches' "$WORK/top.err" || fail "top node -r stats: $(grep 'so far' "$WORK/top.err")"
if grep -q 'so far 3 lists' "$WORK/top.err"; then fail "top node -r listed again: $(cat "$WORK/top.err")"; fi
# An unchanged view is not printed again.
[[ $(grep -c '^Allocated/Total' "$WORK/top.txt") -eq ${#totals[@]} ]] || fail "top node -r: $OUT"
uniq_totals=$(printf '%s\n' "${totals[@]}" | uniq | wc -l)
[[ $uniq_totals -eq ${#totals[@]} ]] || fail "top node -r printed an unchanged view again: ${totals[*]}"

# A watch that answers 410 Expired: the pods are listed again (3 lists), and the view follows.
echo '- {method: GET, path: "^/api/v1/pods", query: "watch=true", action: expire, first: 1}' >"$WORK/faults.yaml"
start_kubesim --default-outcome run-forever --faults "$WORK/faults.yaml"
(timeout -s INT 6 "$TRAINCTL" --kubeconfig "$KCFG" top node -r 1 --loglevel debug \
  >"$WORK/top2.txt" 2>"$WORK/top2.err" || true) &
view=$!
sleep 2
OUT=$(tc submit pytorch --name=after --gpus=2 --image=pytorch/pytorch:2.3 "python train.py" 2>&1) ||
  fail "submit after: $OUT"
wait "$view"
grep -q 'listing again' "$WORK/top2.err" || fail "no relist after 410: $(cat "$WORK/top2.err")"
grep -q 'so far 3 lists' "$WORK/top2.err" || fail "relist stats: $(grep 'so far' "$WORK/top2.err")"
grep -A1 '^Allocated/Total GPUs In Cluster:' "$WORK/top2.txt" | tail -1 | grep -q '^2/24 ' ||
  fail "top node -r after the relist: $(cat "$WORK/top2.txt")"

# top job -r: the table and footer of top job, again when the job runs.
(timeout -s INT 5 "$TRAINCTL" --kubeconfig "$KCFG" top job -r 1 >"$WORK/topjob.txt" 2>&1 || true) &
view=$!
wait "$view"
OUT=$(cat "$WORK/topjob.txt")
grep -Eq '^after +RUNNING +PYTORCHJOB +[^ ]+ +2 +2 ' <<<"$OUT" || fail "top job -r: $OUT"
expect_output "top job -r" "Total Allocated/Requested GPUs of Training Jobs: 2/2"
set +e
OUT=$(tc top job after -r 2>&1)
rc=$?
set -e
[[ $rc -eq 2 ]] || fail "top job NAME -r exits $rc: $OUT"
echo "ok"
