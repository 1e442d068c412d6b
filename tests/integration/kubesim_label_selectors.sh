#!/usr/bin/env bash
# Label-selected pod lists, as kubectl and the official Python client ask for them (-l with
# equality and set-based selectors, whole and in chunks), select what each pod's labels select:
# the labels kubesim keeps beside each stored object follow kubectl label (PATCH), kubectl
# replace (PUT) and kubectl delete. The expectation is computed in Python from each pod's JSON
# with the rules of k8s.io/apimachinery pkg/labels/selector.go (Requirement.Matches), written out
# per selector below, not by kubesim.
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
PY=/usr/bin/python3
command -v kubectl >/dev/null || skip_or_fail "kubectl is not installed"
[[ -x "$PY" ]] && "$PY" -c "import kubernetes" 2>/dev/null || skip_or_fail "python3-kubernetes is not installed"
start_kubesim --no-controllers
k() { kubectl --kubeconfig "$KCFG" "$@"; }

for i in $(seq 0 23); do
  labels="app: $(case $((i % 3)) in 0) echo web ;; 1) echo db ;; *) echo '""' ;; esac)"
  ((i % 2)) && labels+=", tier: $( ((i % 4 < 2)) && echo front || echo back)"
  ((i % 5 != 1)) && labels+=", rank: \"$((i % 6))\""
  ((i % 7 == 0)) && labels='{}'
  [[ "$labels" == '{}' ]] || labels="{$labels}"
  cat <<YAML
---
apiVersion: v1
kind: Pod
metadata: {name: p$((100 + i)), namespace: default, labels: $labels}
spec: {containers: [{name: c, image: busybox}]}
YAML
done >"$WORK/pods.yaml"
k apply -f "$WORK/pods.yaml" >/dev/null || fail "kubectl apply"
for i in 100 104 108 112; do k label pod "p$i" app=patched tier- new=yes --overwrite >/dev/null || fail "label p$i"; done
for i in 101 107 113; do
  k get pod "p$i" -o json | "$PY" -c 'import json,sys; o=json.load(sys.stdin); o["metadata"]["labels"]={"app":"db","tier":"put","rank":"12"}; print(json.dumps(o))' |
    k replace -f - >/dev/null || fail "replace p$i"
done
k delete pod p103 p111 p120 --wait=false >/dev/null || fail "delete"

"$PY" - "$KCFG" <<'PY' || fail "a label-selected list differs from selecting by each pod's labels"
import json, subprocess, sys
from kubernetes import client, config

kcfg = sys.argv[1]
config.load_kube_config(config_file=kcfg)
api = client.CoreV1Api()

def matches(op, key, values, labels):
    # k8s.io/apimachinery pkg/labels/selector.go Requirement.Matches
    present = key in labels
    v = labels.get(key, "")
    if op == "in": return present and v in values
    if op == "notin": return not present or v not in values
    if op == "exists": return present
    if op == "!": return not present
    if not present or not v.isdigit(): return False
    return int(v) > int(values[0]) if op == "gt" else int(v) < int(values[0])

cases = [
    ("app=web", [("in", "app", ["web"])]),
    ("app==db", [("in", "app", ["db"])]),
    ("app!=web", [("notin", "app", ["web"])]),
    ("app in (web,patched)", [("in", "app", ["web", "patched"])]),
    ("app notin (web,db)", [("notin", "app", ["web", "db"])]),
    ("tier", [("exists", "tier", [])]),
    ("!tier", [("!", "tier", [])]),
    ("tier in (front,put),app", [("in", "tier", ["front", "put"]), ("exists", "app", [])]),
    ("app notin (db),!new,tier!=back", [("notin", "app", ["db"]), ("!", "new", []), ("notin", "tier", ["back"])]),
    ("rank>2", [("gt", "rank", ["2"])]),
    ("rank<3,app in (web,db)", [("lt", "rank", ["3"]), ("in", "app", ["web", "db"])]),
]
pods = json.loads(subprocess.check_output(["kubectl", "--kubeconfig", kcfg, "get", "pods", "-o", "json"]))["items"]
assert len(pods) == 21, len(pods)
bad = 0
for selector, reqs in cases:
    want = sorted(p["metadata"]["name"] for p in pods
                  if all(matches(op, key, vals, p["metadata"].get("labels") or {}) for op, key, vals in reqs))
    for chunk in ("500", "2"):
        out = subprocess.check_output(["kubectl", "--kubeconfig", kcfg, "get", "pods", "-l", selector,
                                       "--chunk-size", chunk, "-o", "name"], text=True)
        got = sorted(line.removeprefix("pod/") for line in out.split())
        if got != want:
            print(f"kubectl -l '{selector}' --chunk-size {chunk}: {got}, want {want}", file=sys.stderr); bad += 1
    got, token = [], None
    while True:
        page = api.list_namespaced_pod("default", label_selector=selector, limit=3, _continue=token)
        got += [p.metadata.name for p in page.items]
        token = page.metadata._continue
        if not token: break
    if sorted(got) != want:
        print(f"python label_selector='{selector}': {sorted(got)}, want {want}", file=sys.stderr); bad += 1
sys.exit(1 if bad else 0)
PY
echo "ok"
