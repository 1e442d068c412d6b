#!/usr/bin/env bash
# Watches that end at once without an event (a proxy or load balancer that closes idle
# streams; kubesim's fault "end") and watches answered 410 Expired (fault "expire") must not
# make trainctl send a storm of requests: it waits as client-go's reflector waits between
# restarts (0.8 s doubling to 30 s, with jitter; kube/restart_backoff.h). Each live command
# runs for RUN_SECONDS against its own rule, then kubesim's counters of the requests its
# rules matched are compared with a bound: a count, not a time. Without the backoff the
# same runs sent thousands of requests (top node -r: 24,464 in 5 s).
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
start_kubesim --default-duration 1h --threads 64
RUN_SECONDS=6

server=$(sed -n 's/^ *server: *//p' "$KCFG" | head -1)
token=$(sed -n 's/^ *token: *//p' "$KCFG" | head -1)
sed -n 's/^ *certificate-authority-data: *//p' "$KCFG" | head -1 | base64 -d >"$WORK/ca.pem"
admin() { curl -sS --fail --cacert "$WORK/ca.pem" -H "Authorization: Bearer $token" "$@"; }
make_ns() { admin -X POST -H 'Content-Type: application/json' --data "{\"metadata\":{\"name\":\"$1\"}}" "$server/api/v1/namespaces" >/dev/null; }

for ns in lw le wt sw la; do make_ns "$ns"; done
for ns in wt la; do
  tc -n "$ns" submit pytorch --name=long --workers=1 --image=pytorch/pytorch python-train >/dev/null ||
    fail "set-up submit in $ns failed"
done

# One rule per case; "latency" with no delay only counts the lists of the 410 case.
admin -X PUT -H 'Content-Type: application/json' "$server/kubesim/faults" --data '[
  {"method":"GET","path":"^/api/v1/nodes$","query":"watch=true","action":"end"},
  {"method":"GET","path":"^/api/v1/pods$","query":"watch=true","action":"end"},
  {"method":"GET","path":"/namespaces/lw/","query":"watch=true","action":"end"},
  {"method":"GET","path":"/namespaces/wt/","query":"watch=true","action":"end"},
  {"method":"GET","path":"/namespaces/sw/","query":"watch=true","action":"end"},
  {"method":"GET","path":"/namespaces/la/","query":"watch=true","action":"end"},
  {"method":"GET","path":"/namespaces/le/","query":"watch=true","action":"expire"},
  {"method":"GET","path":"/namespaces/le/","query":"^(?!.*watch=true)","action":"latency","delayMs":0}
]' >/dev/null

PIDS=()
run() {  # NAME ARGS...: runs trainctl for RUN_SECONDS in the background
  local name=$1
  shift
  (timeout "$RUN_SECONDS" "$TRAINCTL" --kubeconfig "$KCFG" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" || true) &
  PIDS+=($!)
}
run top-node top node -r 1
run list-w -n lw list -w
run wait -n wt wait long
run submit-wait -n sw submit pytorch --name=waited --image=pytorch/pytorch --wait python-train
run logs-all -n la logs long -f --all
run list-w-410 -n le list -w
for p in "${PIDS[@]}"; do wait "$p"; done  # not kubesim

rules=$(admin "$server/kubesim/faults")
count() {  # PATH QUERY: how many requests the rule of that path and query matched
  jq -r --arg p "$1" --arg q "$2" '.rules[] | select(.path == $p and .query == $q) | .matched' <<<"$rules"
}
errors=0
check() {  # WHAT COUNT AT_MOST
  echo "$1: $2 requests in ${RUN_SECONDS}s (at most $3)"
  if (($2 > $3)); then
    echo "FAIL: $1 sent $2 requests in ${RUN_SECONDS}s; more than $3 is a storm" >&2
    errors=$((errors + 1))
  fi
  if (($2 == 0)); then
    echo "FAIL: $1 sent no request the rule could count" >&2
    errors=$((errors + 1))
  fi
}
# Each watch that ends without an event waits 0.8-1.6 s, then 1.6-3.2 s, 3.2-6.4 s...: at most
# four per watched collection in 6 s (at 0, 0.8, 2.4 and 5.6 s with no jitter at all), and
# as many lists per collection under 410. list -w watches eight collections (the five job
# kinds and the pods of their three job-name labels), logs -f --all two (pods, the job).
check "top node -r: node watches" "$(count '^/api/v1/nodes$' watch=true)" 4
check "top node -r: pod watches" "$(count '^/api/v1/pods$' watch=true)" 4
check "list -w: watches" "$(count /namespaces/lw/ watch=true)" 32
check "wait: watches" "$(count /namespaces/wt/ watch=true)" 4
check "submit --wait: watches" "$(count /namespaces/sw/ watch=true)" 4
check "logs -f --all: watches" "$(count /namespaces/la/ watch=true)" 8
check "list -w under 410 Expired: watches" "$(count /namespaces/le/ watch=true)" 32
check "list -w under 410 Expired: lists" "$(count /namespaces/le/ '^(?!.*watch=true)')" 32
for f in "$WORK"/*.err; do
  if grep -Eq 'terminate called|what\(\)|Segmentation|AddressSanitizer|runtime error' "$f"; then
    echo "FAIL: $(basename "$f" .err): $(head -3 "$f")" >&2
    errors=$((errors + 1))
  fi
done
((errors == 0)) || fail "$errors check(s) failed"
echo "ok: watches that end without an event or with 410 Expired are spaced by the backoff"
