#!/usr/bin/env bash
# Security checks against kubesim:
# - every command at --loglevel debug, with a token, basic auth, a client certificate signed
#   by kubesim's CA and an exec plugin in the kubeconfig, exits with its expected status and
#   output (basic auth: exit 4 unless kubesim serves it) and never prints the token, the
#   password, the key or an Authorization header value (stdout and stderr alike);
# - insecure-skip-tls-verify is honoured only from the kubeconfig, with a warning;
# - the exec plugin runs the named command with its arguments, no shell in between;
# - `templates export` writes files that are not world-writable, even under umask 000;
# - text from the cluster (event messages, server error messages) reaches the terminal
#   escaped. `logs` prints the container's bytes raw by design (as kubectl logs does);
# - an exec plugin's stderr is shown with credentials redacted at every log level;
# - a server named http:// gets plain HTTP with a warning for the credentials sent; https://
#   never falls back to plain HTTP.
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
start_kubesim --default-duration 5s

server=$(sed -n 's/^ *server: *//p' "$KCFG" | head -1)
token=$(sed -n 's/^ *token: *//p' "$KCFG" | head -1)
ca_data=$(sed -n 's/^ *certificate-authority-data: *//p' "$KCFG" | head -1)
base64 -d <<<"$ca_data" >"$WORK/ca.pem"
api() { curl -sS --cacert "$WORK/ca.pem" -H "Authorization: Bearer $token" "$@"; }

password="pw-$RANDOM-Secret-$RANDOM"
# The client certificate kubesim's CA signed (the kubeconfig's kubesim-cert user), so that the
# TLS handshake succeeds and the commands run with the key in use.
sed -n 's/^ *client-certificate-data: *//p' "$KCFG" | head -1 | base64 -d >"$WORK/client.crt"
sed -n 's/^ *client-key-data: *//p' "$KCFG" | head -1 | base64 -d >"$WORK/client.key"
openssl verify -CAfile "$WORK/ca.pem" "$WORK/client.crt" >/dev/null || fail "the client certificate is not kubesim's"
key_line=$(sed -n 2p "$WORK/client.key")  # a line of the private key's base64
# The exec plugin answers with the real token; an argument with a space and a ';' proves
# that no shell splits or runs it.
cat >"$WORK/cred-plugin" <<EOF
#!/bin/sh
[ "\$1" = "one arg; touch $WORK/shell-ran" ] || { echo "unexpected arguments: \$*" >&2; exit 1; }
printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"%s"}}' "$token"
EOF
chmod +x "$WORK/cred-plugin"
cat >"$WORK/secrets.yaml" <<EOF
apiVersion: v1
kind: Config
current-context: token
clusters:
- name: sim
  cluster: {server: "$server", certificate-authority-data: "$ca_data"}
- name: sim-no-ca
  cluster: {server: "$server"}
- name: sim-insecure
  cluster: {server: "$server", insecure-skip-tls-verify: true}
users:
- name: token
  user: {token: "$token"}
- name: basic
  user: {username: admin, password: "$password"}
- name: cert
  user: {client-certificate: "$WORK/client.crt", client-key: "$WORK/client.key"}
- name: exec
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: "$WORK/cred-plugin"
      args: ["one arg; touch $WORK/shell-ran"]
      interactiveMode: Never
contexts:
- {name: token, context: {cluster: sim, user: token}}
- {name: basic, context: {cluster: sim, user: basic}}
- {name: cert, context: {cluster: sim, user: cert}}
- {name: exec, context: {cluster: sim, user: exec}}
- {name: insecure, context: {cluster: sim-insecure, user: token}}
- {name: no-ca, context: {cluster: sim-no-ca, user: token}}
EOF
chmod 600 "$WORK/secrets.yaml"
KCFG="$WORK/secrets.yaml"

tc --context token submit pytorch --name=sec-job --workers=2 --image=pytorch/pytorch --wait=finished python-train \
  >/dev/null 2>&1 || fail "set-up submit failed"
# Does kubesim accept basic auth? If not, the basic context must fail every command with
# exit 4 (unauthorized), still printing no password.
basic_served=0
[[ $(curl -s -o /dev/null -w '%{http_code}' --cacert "$WORK/ca.pem" -u "admin:$password" "$server/api") == 200 ]] &&
  basic_served=1
# Each command with its exit status and a piece of its output: "exit|command|expected text".
CHECKS=(
  "0|list|sec-job" "0|get sec-job|sec-job" "0|get sec-job -e|Events" "0|logs sec-job|step=" "0|logs -f sec-job|step="
  "0|top node|gpu-a" "0|top job|sec-job" "0|data list|training-data" "3|delete no-such-job|not found"
  "0|submit pytorch --name=sec-new-CTX --image=pytorch/pytorch python-train|submitted successfully"
  "1|submit pytorch --name=sec-new-CTX --image=pytorch/pytorch python-train|already exists"
  "0|__complete --kubeconfig \"\$KCFG\" --context CTX get ''|sec-job" "0|config view|"
)
runs=0
for ctx in token basic cert exec; do
  for check in "${CHECKS[@]}"; do
    IFS='|' read -r want cmd text <<<"$check"
    cmd=${cmd//CTX/$ctx}
    if [[ $ctx == basic && $basic_served == 0 ]]; then
      # Completion stays quiet on errors (no candidates, exit 0); config view reads no cluster.
      case "$cmd" in
        __complete*) text="" ;;
        "config view") ;;
        *) want=4; text="Unauthorized" ;;
      esac
    fi
    runs=$((runs + 1))
    rc=0
    eval "tc --context $ctx --loglevel debug $cmd" >"$WORK/out" 2>&1 || rc=$?
    [[ $rc == "$want" ]] || fail "context $ctx, '$cmd' exited $rc, expected $want: $(tail -3 "$WORK/out")"
    [[ -z "$text" ]] || grep -qF -- "$text" "$WORK/out" || fail "context $ctx, '$cmd' lacks \"$text\": $(tail -3 "$WORK/out")"
    for secret in "$token" "$password" "$key_line" "$(printf 'admin:%s' "$password" | base64)"; do
      if grep -qF -- "$secret" "$WORK/out"; then fail "context $ctx, '$cmd' printed a secret:
$(grep -nF -- "$secret" "$WORK/out" | head -3)"; fi
    done
    if grep -Eiq 'authorization: *(bearer|basic) +[^ *<[]' "$WORK/out"; then
      fail "context $ctx, '$cmd' printed an Authorization header: $(grep -i authorization "$WORK/out" | head -2)"
    fi
  done
done
[[ ! -e "$WORK/shell-ran" ]] || fail "the exec plugin's argument went through a shell"
grep -q 'GET ' <(tc --context exec --loglevel debug list 2>&1) || fail "the exec context did not reach the server"
echo "ok: $runs command runs at --loglevel debug exited as expected and printed no token, password, key or" \
  "Authorization value (basic auth served by kubesim: $basic_served)"

# An exec plugin's stderr may carry credentials: trainctl shows it (kubectl passes it to the
# terminal as it is) with what looks like one redacted, at every log level, whether the plugin
# failed (nothing registered as a secret yet) or succeeded (-vv logs its stderr).
jwt="eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJib2IifQ.c2lnLSRSQU5ET00tJHJhbmRvbQ"
leaks=("$token" "rt-$RANDOM-refresh" "$jwt" "pw-$RANDOM-hunter" "sk-$RANDOM-apikey")
cat >"$WORK/leaky-plugin" <<EOF
#!/bin/sh
echo "token refresh failed: refresh_token=${leaks[1]} id_token: ${leaks[2]}" >&2
echo "retrying with Authorization: Bearer $token and password=${leaks[3]}, api_key=${leaks[4]}" >&2
[ "\$1" = ok ] || exit 1
printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"%s"}}' "$token"
EOF
chmod +x "$WORK/leaky-plugin"
for mode in fail ok; do
  cat >"$WORK/leaky-$mode.yaml" <<EOF
apiVersion: v1
kind: Config
current-context: leaky
clusters:
- {name: sim, cluster: {server: "$server", certificate-authority-data: "$ca_data"}}
users:
- name: leaky
  user: {exec: {apiVersion: client.authentication.k8s.io/v1, command: "$WORK/leaky-plugin", args: ["$mode"], interactiveMode: Never}}
contexts:
- {name: leaky, context: {cluster: sim, user: leaky}}
EOF
  want=1
  [[ $mode == ok ]] && want=0
  for verbosity in "" -v -vv "--loglevel debug"; do
    rc=0
    # shellcheck disable=SC2086
    "$TRAINCTL" --kubeconfig "$WORK/leaky-$mode.yaml" $verbosity list >"$WORK/out" 2>&1 || rc=$?
    [[ $rc == "$want" ]] || fail "leaky plugin ($mode, '$verbosity'): exit $rc, expected $want: $(tail -3 "$WORK/out")"
    for secret in "${leaks[@]}"; do
      if grep -qF -- "$secret" "$WORK/out"; then fail "leaky plugin ($mode, '$verbosity') printed a secret:
$(grep -nF -- "$secret" "$WORK/out" | head -3)"; fi
    done
  done
  if [[ $mode == fail ]]; then
    grep -q '^error: exec plugin .* failed with exit code 1: token refresh failed: refresh_token=<redacted>' "$WORK/out" ||
      fail "the failing plugin's stderr is not shown redacted: $(cat "$WORK/out")"
  else
    grep -q 'wrote to stderr: token refresh failed: refresh_token=<redacted>' "$WORK/out" ||
      fail "-vv does not log the plugin's stderr redacted: $(grep -i stderr "$WORK/out")"
  fi
done
echo "ok: an exec plugin's stderr is shown with its credentials redacted at every log level, failing or not"

# TLS: verified by default (a kubeconfig without the CA fails with exit 4), skipped only
# when the kubeconfig says so, with a warning.
rc=0; OUT=$(tc --context no-ca list 2>&1) || rc=$?
[[ $rc == 4 ]] || fail "an untrusted server certificate gave exit $rc, expected 4: $OUT"
OUT=$(tc --context insecure list 2>&1) || fail "insecure-skip-tls-verify context failed: $OUT"
expect_output "insecure warning" "insecure-skip-tls-verify"
grep -qi '^warn' <<<"$OUT" || fail "no warning for insecure-skip-tls-verify: $OUT"
echo "ok: TLS verified by default; insecure-skip-tls-verify only from the kubeconfig, with a warning"

# Files written by trainctl are not world-writable, whatever the umask.
(umask 000 && "$TRAINCTL" templates export "$WORK/exported" >/dev/null) || fail "templates export failed"
writable=$(find "$WORK/exported" -perm -o+w | head -3)
[[ -z "$writable" ]] || fail "templates export wrote world-writable paths: $writable"
echo "ok: templates export writes nothing world-writable under umask 000"

# Terminal escapes from the cluster are shown escaped: an event message and a server error.
esc=$'\e]0;pwned\a\e[31mred'
uid=$(api "$server/apis/kubeflow.org/v1/namespaces/default/pytorchjobs/sec-job" | sed -n 's/.*"uid": *"\([^"]*\)".*/\1/p' | head -1)
event=$(jq -n --arg m "$esc" --arg uid "$uid" '{apiVersion:"v1",kind:"Event",metadata:{name:"sec-job.evil"},
  involvedObject:{kind:"PyTorchJob",name:"sec-job",namespace:"default",uid:$uid},reason:"Evil",message:$m,type:"Warning"}')
api -X POST -H 'Content-Type: application/json' --data "$event" "$server/api/v1/namespaces/default/events" >/dev/null
OUT=$(tc --context token get sec-job -e 2>&1) || fail "get -e failed: $OUT"
grep -q 'Evil' <<<"$OUT" || fail "get -e does not show the planted event: $OUT"
if grep -q $'\e' <<<"$OUT"; then fail "get -e printed a raw ESC from an event message"; fi
rule=$(jq -n --arg m "$esc" '[{path:"/pytorchjobs$",first:1,action:"status",status:500,message:$m}]')
api -X PUT -H 'Content-Type: application/json' --data "$rule" "$server/kubesim/faults" >/dev/null
rc=0; OUT=$(tc --context token submit pytorch --name=sec-esc --image=i python-train 2>&1) || rc=$?
[[ $rc == 1 ]] || fail "submit under a 500 with escapes gave exit $rc: $OUT"
if grep -q $'\e' <<<"$OUT"; then fail "an error message from the server reached the terminal with a raw ESC"; fi
grep -qF '\x1b' <<<"$OUT" || fail "the escaped error does not show the ESC as \\x1b: $OUT"
echo "ok: event messages and server errors with terminal escapes are printed escaped"

# Cleartext HTTP: a server named http:// gets plain HTTP, as kubectl sends it, with a warning
# when the kubeconfig's credentials go with it; one named https:// never falls back to it.
plain_token="plain-$RANDOM-$RANDOM-token"
KCFG="$WORK/kubeconfig"
start_kubesim --plain-http --token "$plain_token" --no-controllers
plain_server=$(sed -n 's/^ *server: *//p' "$KCFG" | head -1)
[[ $plain_server == http://* ]] || fail "kubesim --plain-http wrote server $plain_server"
OUT=$(tc --loglevel debug list 2>&1) || fail "list over plain HTTP failed: $OUT"
grep -q "^WARN the kubeconfig sends credentials to $plain_server in clear text" <<<"$OUT" ||
  fail "no warning for credentials sent in clear text: $OUT"
if grep -qF -- "$plain_token" <<<"$OUT"; then fail "the token was printed: $(grep -F -- "$plain_token" <<<"$OUT")"; fi
sed "s#server: *http://#server: https://#" "$KCFG" >"$WORK/https-to-plain.yaml"
rc=0
OUT=$("$TRAINCTL" --kubeconfig "$WORK/https-to-plain.yaml" list 2>&1) || rc=$?
[[ $rc == 1 ]] || fail "https:// to a plain HTTP server gave exit $rc: $OUT"
grep -q '^error: the TLS handshake with https://' <<<"$OUT" || fail "https:// to a plain HTTP server: $OUT"
if grep -qF -- "$plain_token" <<<"$OUT"; then fail "the token was printed: $OUT"; fi
echo "ok: http:// servers get plain HTTP with a warning for the credentials; https:// never falls back to it"
