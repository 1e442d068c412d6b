#!/usr/bin/env bash
# Every command that talks to the cluster, under each of kubesim's faults: 429 with
# Retry-After, 500, 503, a reset connection, a stalled answer (past --request-timeout), a
# body cut short, 200 with JSON that does not parse, a proxy's HTML page. A fault that goes
# away is retried through (exit 0); one that stays ends the command with exit 1 and one line
# on stderr naming the cause; never a crash, a raw exception text or a hang (`timeout` only
# guards against one). Each fault kind and each command get their own namespace so that the
# cases run side by side; `submit --wait` also runs across cut watch streams.
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
start_kubesim --default-duration 5s --threads 256

server=$(sed -n 's/^ *server: *//p' "$KCFG" | head -1)
token=$(sed -n 's/^ *token: *//p' "$KCFG" | head -1)
sed -n 's/^ *certificate-authority-data: *//p' "$KCFG" | head -1 | base64 -d >"$WORK/ca.pem"
admin() { curl -sS --fail --cacert "$WORK/ca.pem" -H "Authorization: Bearer $token" "$@" >/dev/null; }
add_faults() { admin -X POST -H 'Content-Type: application/json' --data "$1" "$server/kubesim/faults"; }
clear_faults() { admin -X DELETE "$server/kubesim/faults"; }
make_ns() { admin -X POST -H 'Content-Type: application/json' --data "{\"metadata\":{\"name\":\"$1\"}}" "$server/api/v1/namespaces"; }

# The commands, one a line; NS stands for the namespace of the case.
COMMANDS=(
  "-n NS list"
  "-n NS get done-job"
  "-n NS logs done-job"
  "-n NS logs -f done-job"
  "-n NS top job"
  "-n NS data list"
  "-n NS delete victim"
  "-n NS submit pytorch --name=fresh --workers=2 --image=pytorch/pytorch --tensorboard python-train"
  "-n NS submit pytorch --name=waited --image=pytorch/pytorch --wait python-train"
  "__complete -n NS get ''"
)
KINDS=(s429 s500 s503 reset stall truncate malformed html)
declare -A RULE=(
  [s429]='"action":"status","status":429,"retryAfter":1'
  [s500]='"action":"status","status":500'
  [s503]='"action":"status","status":503'
  [reset]='"action":"reset"'
  [stall]='"action":"stall","delayMs":8000'
  [truncate]='"action":"truncate"'
  [malformed]='"action":"malformed"'
  [html]='"action":"html","status":502'
)
declare -A CAUSE=(
  [s429]='HTTP 429 Too Many Requests' [s500]='HTTP 500 Internal Server Error'
  [s503]='HTTP 503 Service Unavailable' [reset]='closed before the answer was complete'
  [stall]='timed out' [truncate]='closed before the answer was complete'
  [malformed]='not JSON' [html]='HTTP 502 Bad Gateway'
)
BAD='terminate called|what\(\)|json\.exception|Segmentation|AddressSanitizer|runtime error|Aborted'

# run_case DIR NS CMD [REQUEST_TIMEOUT]: runs one command of a case in the background, results
# under DIR. Only the stall case needs a short --request-timeout (5 s); the others get 20 s, so
# that a sanitizer build on loaded cores, slow to close a truncated answer, is not taken for a
# stall.
run_case() {
  local dir=$1 cmd=${3//NS/$2} request_timeout=${4:-20s}
  # At most 24 at once: with all 91 side by side, a sanitizer build of kubesim on two loaded
  # cores answered some requests after the 5 s --request-timeout that the stall case needs.
  while (( $(jobs -rp | wc -l) >= 24 )); do wait -n || true; done
  mkdir -p "$dir"
  echo "$cmd" >"$dir/cmd"
  (
    rc=0
    eval "timeout 40 \"\$TRAINCTL\" --kubeconfig \"\$KCFG\" --request-timeout $request_timeout $cmd" >"$dir/out" 2>"$dir/err" || rc=$?
    echo "$rc" >"$dir/rc"
  ) &
  PIDS+=($!)
}
PIDS=()
wait_all() { for p in "${PIDS[@]}"; do wait "$p" || true; done; PIDS=(); }  # not kubesim

# A finished job and a job to delete in every namespace used.
setup_ns() {
  make_ns "$1"
  tc -n "$1" submit pytorch --name=done-job --image=pytorch/pytorch --wait=finished python-train >/dev/null 2>&1 &&
    tc -n "$1" submit pytorch --name=victim --image=pytorch/pytorch python-train >/dev/null 2>&1 ||
    echo "set-up of namespace $1 failed" >"$WORK/setup-failed"
}
for kind in "${KINDS[@]}"; do setup_ns "f-$kind" & PIDS+=($!); done
for k in "${!COMMANDS[@]}"; do setup_ns "r-$k" & PIDS+=($!); done
setup_ns w & PIDS+=($!)
wait_all
[[ ! -f "$WORK/setup-failed" ]] || fail "$(cat "$WORK/setup-failed")"

# Persistent faults, one namespace per kind; recovering ones, one namespace per command:
# its first GETs meet 429 (Retry-After: 1), a reset, a cut body and a 503, in turn.
for kind in "${KINDS[@]}"; do
  add_faults "[{\"path\":\"/namespaces/f-$kind/\",${RULE[$kind]}}]"
done
for k in "${!COMMANDS[@]}"; do
  p="\"method\":\"GET\",\"path\":\"/namespaces/r-$k/\",\"first\":1"
  add_faults "[{$p,${RULE[s429]}},{$p,${RULE[reset]}},{$p,${RULE[truncate]}},{$p,${RULE[s503]}}]"
done
# submit --wait=finished across watch streams cut after every event. The job runs for 60
# simulated seconds (3 s at the suite's speed), so its status changes after the first list
# however slow the build is, and pods that end early cannot make the progress repeat itself.
add_faults '[{"method":"GET","path":"/namespaces/w/","action":"cut","lines":1}]'

for kind in "${KINDS[@]}"; do
  t=20s
  [[ $kind == stall ]] && t=5s
  for k in "${!COMMANDS[@]}"; do run_case "$WORK/p/$kind/$k" "f-$kind" "${COMMANDS[$k]}" "$t"; done
done
for k in "${!COMMANDS[@]}"; do run_case "$WORK/r/$k" "r-$k" "${COMMANDS[$k]}"; done
run_case "$WORK/w" w "-n NS --loglevel debug submit pytorch --name=cut-wait --workers=3 --image=pytorch/pytorch --annotation=kubesim.trainctl.io/duration=60s --wait=finished python-train"
wait_all

errors=0
bad() { echo "FAIL: $*" >&2; errors=$((errors + 1)); }
check_common() {  # DIR
  if grep -Eq "$BAD" "$1/out" "$1/err"; then bad "$(cat "$1/cmd"): crash or raw exception: $(head -3 "$1/err")"; fi
  [[ "$(cat "$1/rc")" != 124 ]] || bad "$(cat "$1/cmd"): still running after 40 s"
}
checked=0
for kind in "${KINDS[@]}"; do
  for k in "${!COMMANDS[@]}"; do
    d="$WORK/p/$kind/$k"
    checked=$((checked + 1))
    check_common "$d"
    rc=$(cat "$d/rc")
    if [[ "${COMMANDS[$k]}" == __complete* ]]; then
      # Completion stays silent: no candidates, no error text in the shell.
      [[ "$rc" == 0 && ! -s "$d/err" ]] || bad "$(cat "$d/cmd") under $kind: rc $rc, stderr $(cat "$d/err")"
      continue
    fi
    [[ "$rc" == 1 ]] || bad "$(cat "$d/cmd") under $kind: exit $rc, expected 1: $(cat "$d/err")"
    [[ $(wc -l <"$d/err") == 1 ]] || bad "$(cat "$d/cmd") under $kind: stderr is not one line: $(cat "$d/err")"
    grep -q "^error: .*${CAUSE[$kind]}" "$d/err" || bad "$(cat "$d/cmd") under $kind: cause \"${CAUSE[$kind]}\" not named: $(cat "$d/err")"
  done
done
for k in "${!COMMANDS[@]}"; do
  d="$WORK/r/$k"
  checked=$((checked + 1))
  check_common "$d"
  [[ "$(cat "$d/rc")" == 0 ]] || bad "$(cat "$d/cmd") did not get through passing faults: exit $(cat "$d/rc"): $(cat "$d/err")"
done
check_common "$WORK/w"
[[ "$(cat "$WORK/w/rc")" == 0 ]] || bad "submit --wait across cut watches: exit $(cat "$WORK/w/rc"): $(tail -3 "$WORK/w/err")"
dups=$(sort "$WORK/w/out" | uniq -d)
[[ -z "$dups" ]] || bad "submit --wait printed lines twice across cut watches: $dups"
watches=$(grep -c 'GET .*watch=' "$WORK/w/err" || true)
(( watches >= 2 )) || bad "submit --wait opened $watches watch streams: the cut was not resumed from"
if (( errors > 0 )) && [[ -n "$dups" || $watches -lt 2 ]]; then
  { echo "--- submit --wait output:"; cat "$WORK/w/out"; echo "--- its requests:"; grep -E 'GET|POST' "$WORK/w/err" | cut -c1-160; } >&2
fi
(( errors == 0 )) || fail "$errors of $((checked + 1)) cases failed"
echo "ok: $checked command/fault cases and submit --wait over $watches watch requests with cuts"
