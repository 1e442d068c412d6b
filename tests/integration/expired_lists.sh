#!/usr/bin/env bash
# Paged lists whose continue token has expired, as kube-apiserver answers once etcd was
# compacted past the list's revision (410 Expired; kubesim's "expire" fault on requests with
# a continue token): trainctl lists again from the start once, with the same result, and says
# so at debug level; a second expiry is one line and exit 1. Every real kubectl reads the same
# answer as the server's Status. A cluster of 600 jobs and 1,500 pods, so that lists have
# several pages (the first of 100, later ones of up to 500).
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
start_kubesim --no-controllers --generate nodes=20,jobs=600,pods=1500

server=$(sed -n 's/^ *server: *//p' "$KCFG" | head -1)
token=$(sed -n 's/^ *token: *//p' "$KCFG" | head -1)
sed -n 's/^ *certificate-authority-data: *//p' "$KCFG" | head -1 | base64 -d >"$WORK/ca.pem"
api() { curl -sS --fail --cacert "$WORK/ca.pem" -H "Authorization: Bearer $token" "$@"; }
set_faults() { api -X PUT -H 'Content-Type: application/json' --data "$1" "$server/kubesim/faults" >/dev/null; }
expire_continues() { set_faults "[{\"method\":\"GET\",\"query\":\"continue=\",\"action\":\"expire\",\"first\":$1}]"; }
fired() { api "$server/kubesim/faults" | grep -o '"fired":[0-9]*' | head -1 | cut -d: -f2; }

# Durations run with the clock: what is compared leaves them out.
timeless() { grep -vE '"(duration|age)":' | sed -E 's/ [0-9]+[smhd][0-9smhd]* / /g'; }
for cmd in "list -A" "top node" "list -A -o json"; do
  set_faults '[]'
  tc $cmd 2>"$WORK/err" | timeless >"$WORK/before" || fail "$cmd without faults: $(cat "$WORK/err")"
  # (Read from a file: a grep -q on a pipe would leave this trainctl running into the fault below.)
  tc --loglevel debug $cmd >/dev/null 2>"$WORK/pages"
  grep -q "continue=" "$WORK/pages" || fail "$cmd: no list had a second page"
  # One expiry: the lists start again and the output is the same.
  expire_continues 1
  tc --loglevel debug $cmd 2>"$WORK/err" | timeless >"$WORK/after" ||
    fail "$cmd with one expired token: $(tail -3 "$WORK/err")"
  [[ "$(fired)" == 1 ]] || fail "$cmd: the expire fault did not fire"
  cmp -s "$WORK/before" "$WORK/after" || fail "$cmd: output differs after the restarted list:
$(diff "$WORK/before" "$WORK/after" | head -5)"
  grep -q "the continue token expired (410 Expired); listing again from the start" "$WORK/err" ||
    fail "$cmd: the restart is not logged at debug level: $(grep -i -E "expired|410|continue" "$WORK/err" | head -5)"
  # Every continue token expired, so the list from the start meets it again: one line, exit 1.
  # (Not "the first two": a round asks for the next page of several lists at once, and those
  # expire together before the one restart.)
  set_faults '[{"method":"GET","query":"continue=","action":"expire"}]'
  rc=0
  tc $cmd >/dev/null 2>"$WORK/err" || rc=$?
  [[ $rc == 1 ]] || fail "$cmd with two expired tokens: exit $rc"
  [[ $(wc -l <"$WORK/err") == 1 ]] || fail "$cmd: stderr is not one line: $(cat "$WORK/err")"
  grep -q "^error: the server expired the list of .* twice while trainctl read it page by page (410 Expired" \
    "$WORK/err" || fail "$cmd: unexpected error: $(cat "$WORK/err")"
done

# kubectl (1.27 ... 1.33) reads the same Status: kubectl get does not list again, it reports it.
KUBECTL_PATH=$(command -v kubectl || true)
if [[ -n "$KUBECTL_PATH" ]]; then
  KDIR=$(dirname "$(readlink -f "$KUBECTL_PATH")")
  for k in kubectl kubectl.1.27 kubectl.1.28 kubectl.1.29 kubectl.1.30 kubectl.1.31 kubectl.1.32 kubectl.1.33; do
    [[ -x "$KDIR/$k" ]] || continue
    expire_continues 1
    out=$("$KDIR/$k" --kubeconfig "$KCFG" get nodes --chunk-size=5 2>&1 || true)
    grep -q "Error from server (Expired): The provided continue parameter is too old to display a consistent list result" \
      <<<"$out" || fail "$k: $out"
  done
fi
set_faults '[]'
echo "ok: lists restarted once after an expired continue token; a second expiry is one line"
