#!/usr/bin/env bash
# kube-apiserver semantics trainctl depends on, seen by trainctl and every real kubectl
# (1.27 ... 1.33) against kubesim:
# - graceful deletion: a deleted job stays TERMINATING (foreground deletion) while its pods
#   are Terminating for their grace period, then goes; kubectl shows the same, deletes in the
#   foreground and orphans, and watches MODIFIED then DELETED;
# - a watch whose revision expired (kubesim's "expire" fault: HTTP 200, then an ERROR event
#   with a 410 Expired Status): submit --wait lists again and goes on;
# - every CRD of the schema directory, in every version it serves, readable by every kubectl;
#   Kueue's objects written in v1beta1 read in the preferred v1beta2.
# Waits are polls with a bound, as a client of a real cluster must.
set -euo pipefail
command -v python3 >/dev/null && python3 -c 'import yaml' 2>/dev/null ||
  { echo "SKIPPED: python3 with the yaml module is needed to read the CRDs" >&2; exit 77; }
KUBESIM_SPEED=4  # a pod's 30s grace period lasts 7.5 s: long enough to be seen, short enough to wait for
source "$(dirname "$0")/kubesim_env.bash"
[[ -n "$SCHEMAS" ]] || { echo "SKIPPED: no Kubernetes schemas" >&2; exit 77; }
start_kubesim --default-outcome run-forever

server=$(sed -n 's/^ *server: *//p' "$KCFG" | head -1)
token=$(sed -n 's/^ *token: *//p' "$KCFG" | head -1)
sed -n 's/^ *certificate-authority-data: *//p' "$KCFG" | head -1 | base64 -d >"$WORK/ca.pem"
api() { curl -sS --fail --cacert "$WORK/ca.pem" -H "Authorization: Bearer $token" "$@"; }
set_faults() { api -X PUT -H 'Content-Type: application/json' --data "$1" "$server/kubesim/faults" >/dev/null; }
KUBECTLS=()
if KUBECTL_PATH=$(command -v kubectl); then
  KDIR=$(dirname "$(readlink -f "$KUBECTL_PATH")")
  for k in kubectl kubectl.1.27 kubectl.1.28 kubectl.1.29 kubectl.1.30 kubectl.1.31 kubectl.1.32 kubectl.1.33; do
    [[ -x "$KDIR/$k" ]] && KUBECTLS+=("$KDIR/$k")
  done
fi
k() { "${KUBECTLS[0]}" --kubeconfig "$KCFG" "$@"; }
# until_ok DESCRIPTION COMMAND...: polls every 0.1 s, at most 60 s.
until_ok() {
  local what=$1
  shift
  for _ in $(seq 600); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
  fail "$what (60 s)"
}
gone() { ! "$@" >/dev/null 2>&1; }

# ---- trainctl delete: at once, then TERMINATING until the pods have stopped ----
tc submit pytorch --name=del-fg --workers=2 --image=pytorch/pytorch --wait python-train >/dev/null
out=$(tc delete del-fg)
expect_eq() { [[ "$2" == "$3" ]] || fail "$1: expected \"$2\", got \"$3\""; }
expect_eq "delete" "The training job del-fg is being deleted: TERMINATING until its pods have stopped" "$out"
terminating() { tc list | grep -Eq '^del-fg +TERMINATING ' && tc get del-fg | grep -q ' Terminating '; }
until_ok "list TERMINATING and get's instances Terminating" terminating
out=$(tc submit pytorch --name=del-fg --image=pytorch/pytorch python-train 2>&1) && fail "submit of a terminating name succeeded"
grep -q "job del-fg already exists" <<<"$out" || fail "submit of a terminating name: $out"
until_ok "the deleted job to be gone" gone tc get del-fg
set +e
tc get del-fg >/dev/null 2>&1
rc=$?
set -e
[[ $rc == 3 ]] || fail "get of the deleted job exited $rc, not 3"
[[ -z "$(k get pods -l training.kubeflow.org/job-name=del-fg -o name)" ]] || fail "pods of the deleted job left"

# ---- kubectl: Terminating pods, foreground and orphan deletion, watch events ----
if ((${#KUBECTLS[@]} > 0)); then
  k run sleeper --image=busybox --restart=Never >/dev/null
  until_ok "pod sleeper to run" bash -c "'${KUBECTLS[0]}' --kubeconfig '$KCFG' get pod sleeper | grep -q Running"
  timeout 30 "${KUBECTLS[0]}" --kubeconfig "$KCFG" get pods --watch --output-watch-events >"$WORK/watch.txt" 2>&1 &
  watcher=$!
  sleep 1
  k delete pod sleeper --wait=false >/dev/null
  for kc in "${KUBECTLS[@]}"; do
    out=$("$kc" --kubeconfig "$KCFG" get pod sleeper 2>&1)
    grep -Eq '^sleeper +1/1 +Terminating ' <<<"$out" || fail "$(basename "$kc") get pod of a deleted pod: $out"
  done
  until_ok "pod sleeper to go" gone k get pod sleeper
  for _ in $(seq 100); do grep -q '^DELETED' "$WORK/watch.txt" && break; sleep 0.1; done
  kill "$watcher" 2>/dev/null || true
  grep -Eq '^MODIFIED +sleeper +1/1 +Terminating' "$WORK/watch.txt" || fail "watch: no MODIFIED Terminating: $(cat "$WORK/watch.txt")"
  grep -Eq '^DELETED +sleeper ' "$WORK/watch.txt" || fail "watch: no DELETED: $(cat "$WORK/watch.txt")"

  tc submit pytorch --name=fg --image=pytorch/pytorch --wait python-train >/dev/null
  k delete pytorchjob fg --cascade=foreground --wait=false >/dev/null
  fins=$(k get pytorchjob fg -o jsonpath='{.metadata.finalizers}')
  grep -q foregroundDeletion <<<"$fins" || fail "foreground deletion without its finalizer: $fins"
  until_ok "the job deleted in the foreground to go" gone k get pytorchjob fg
  [[ -z "$(k get pods -l training.kubeflow.org/job-name=fg -o name)" ]] || fail "foreground deletion left pods"

  tc submit pytorch --name=orph --image=pytorch/pytorch --wait python-train >/dev/null
  k delete pytorchjob orph --cascade=orphan >/dev/null
  until_ok "the orphaning job to go" gone k get pytorchjob orph
  refs=$(k get pod orph-master-0 -o jsonpath='{.metadata.ownerReferences}')
  [[ -z "$refs" ]] || fail "an orphaned pod kept its ownerReferences: $refs"
  k delete pod orph-master-0 --wait=false >/dev/null
fi

# ---- submit --wait across a watch that expired: a new list, then on ----
set_faults '[{"method":"GET","query":"watch=true","action":"expire","first":1}]'
tc --loglevel debug submit pytorch --name=expired-watch --image=pytorch/pytorch --wait python-train \
  >/dev/null 2>"$WORK/err" || fail "submit --wait across an expired watch: $(tail -3 "$WORK/err")"
grep -q "too old resource version: .* (410 Expired); listing again" "$WORK/err" ||
  fail "the expired watch is not logged at debug level: $(grep -i watch "$WORK/err" | tail -3)"
grep -q "allowWatchBookmarks=true" "$WORK/err" || fail "the watch does not ask for bookmarks"
lists=$(grep -E 'GET [^ ]*/api/v1/namespaces/default/pods\?labelSelector=' "$WORK/err" | grep -vc 'watch=true' || true)
((lists >= 2)) || fail "the pods were listed $lists times across an expired watch, not again"
set_faults '[]'

# ---- every CRD of the schema directory, in every served version ----
python3 - "$SCHEMAS/crds" >"$WORK/crds.txt" <<'PY'
import pathlib, sys, yaml
for f in sorted(pathlib.Path(sys.argv[1]).glob("*.yaml")):
    for d in yaml.safe_load_all(f.read_text()):
        if not d or d.get("kind") != "CustomResourceDefinition":
            continue
        s = d["spec"]
        for v in s["versions"]:
            if v.get("served"):
                print(f'{s["names"]["plural"]}.{v["name"]}.{s["group"]}')
PY
(($(wc -l <"$WORK/crds.txt") >= 14)) || fail "fewer served CRD versions than expected: $(cat "$WORK/crds.txt")"
for kc in "${KUBECTLS[@]}"; do
  while read -r res; do
    out=$("$kc" --kubeconfig "$KCFG" get "$res" -A 2>&1) || fail "$(basename "$kc") get $res: $out"
  done <"$WORK/crds.txt"
done
for group in $(sed -E 's/^[^.]+\.[^.]+\.//' "$WORK/crds.txt" | sort -u); do
  api "$server/apis/$group" >/dev/null || fail "discovery of the group $group"
done
pref=$(api "$server/apis/kueue.x-k8s.io" | python3 -c 'import json,sys; print(json.load(sys.stdin)["preferredVersion"]["version"])')
[[ $pref == v1beta2 ]] || fail "kueue.x-k8s.io prefers $pref, not v1beta2"
if ((${#KUBECTLS[@]} > 0)); then
  k apply -f - >/dev/null <<'YAML'
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata:
  name: team-a
spec:
  clusterQueue: cluster-queue
YAML
  for kc in "${KUBECTLS[@]}"; do
    av=$("$kc" --kubeconfig "$KCFG" get localqueues team-a -o jsonpath='{.apiVersion}')
    [[ $av == kueue.x-k8s.io/v1beta2 ]] || fail "$(basename "$kc") reads the LocalQueue as $av"
    av=$("$kc" --kubeconfig "$KCFG" get localqueues.v1beta1.kueue.x-k8s.io team-a -o jsonpath='{.apiVersion}')
    [[ $av == kueue.x-k8s.io/v1beta1 ]] || fail "$(basename "$kc") reads the v1beta1 LocalQueue as $av"
  done
fi
echo "ok: deletion, expired watches and $(wc -l <"$WORK/crds.txt") served CRD versions with ${#KUBECTLS[@]} kubectl versions"
