#!/usr/bin/env bash
# --dry-run contacts nothing (no kubeconfig needed) and prints a YAML stream that
# `kubectl apply -f -` accepts; what kubectl creates from it is what trainctl would create.
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"

# No cluster, no kubeconfig: still works, namespace "default".
OUT=$(KUBECONFIG=/nonexistent/kubeconfig HOME="$WORK" TRAINCTL_CONFIG= "$TRAINCTL" submit pytorch --name=dry \
  --image=busybox --workers=2 --tensorboard --dry-run "echo 'a: b' # c" 2>&1) || fail "dry-run without a cluster: $OUT"
expect_output "dry-run" "kind: PyTorchJob"
expect_output "dry-run" "namespace: default"
[[ $(grep -c '^---$' <<<"$OUT") -eq 2 ]] || fail "expected 3 documents: $OUT"
OUT=$(KUBECONFIG=/nonexistent/kubeconfig HOME="$WORK" "$TRAINCTL" -n ns2 submit mpi --name=dry --image=busybox \
  --dry-run -o json "true" 2>&1) || fail "dry-run -o json: $OUT"
python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["kind"]=="List" and d["apiVersion"]=="v1"; assert d["items"][0]["metadata"]["namespace"]=="ns2"' <<<"$OUT" ||
  fail "-o json is not a v1 List: $OUT"

command -v kubectl >/dev/null 2>&1 || skip_or_fail "kubectl not found"
start_kubesim --default-outcome run-forever
"$TRAINCTL" --kubeconfig "$KCFG" submit volcano --name=applied --image=busybox --task=ps:1 --task=worker:2 \
  --service-account=paddle --dry-run "echo \"{{x}}\"" >"$WORK/stream.yaml" || fail "dry-run volcano"
OUT=$(kubectl --kubeconfig "$KCFG" apply -f "$WORK/stream.yaml" 2>&1) || fail "kubectl apply: $OUT"
expect_output "kubectl apply" "applied"
OUT=$(kubectl --kubeconfig "$KCFG" get jobs.batch.volcano.sh applied -o jsonpath='{.spec.tasks[1].template.spec.containers[0].command[2]}' 2>&1) ||
  fail "kubectl get: $OUT"
[[ "$OUT" == 'echo "{{x}}"' ]] || fail "command changed on the way: $OUT"
# --service-account: on every task's template, and on the pods Volcano makes of them.
OUT=$(kubectl --kubeconfig "$KCFG" get jobs.batch.volcano.sh applied -o jsonpath='{.spec.tasks[*].template.spec.serviceAccountName}')
[[ "$OUT" == "paddle paddle" ]] || fail "serviceAccountName of the tasks: $OUT"
OUT=$("$TRAINCTL" --kubeconfig "$KCFG" wait applied --for=running --timeout=60s 2>&1) || fail "wait applied: $OUT"
OUT=$(kubectl --kubeconfig "$KCFG" get pods -l volcano.sh/job-name=applied -o jsonpath='{.items[*].spec.serviceAccountName}')
[[ "$OUT" == "paddle paddle paddle" ]] || fail "serviceAccountName of the pods: $OUT"

# Values with the characters YAML treats as line breaks or does not allow (CR, NEL, U+2028,
# U+2029, DEL, a BOM, C0 controls): `kubectl apply -f` reads the --dry-run YAML, and what the
# cluster then holds is byte for byte what --dry-run -o json prints; PyYAML reads the same.
command -v python3 >/dev/null 2>&1 && python3 -c 'import yaml' 2>/dev/null || skip_or_fail "python3-yaml not found"
HOSTILE=$'cr\rcr nel\xc2\x85 ls\xe2\x80\xa8 ps\xe2\x80\xa9 del\x7f bom\xef\xbb\xbf tab\t esc\x1b[0m a \xc2\x85 b\r\n'
hostile_submit() {
  "$TRAINCTL" --kubeconfig "$KCFG" submit pytorch --name=hostile --image=busybox "--env=H=$HOSTILE" \
    "--annotation=example.com/h=$HOSTILE" --dry-run "$@" "echo '$HOSTILE'"
}
hostile_submit >"$WORK/hostile.yaml" || fail "dry-run with hostile values"
hostile_submit -o json >"$WORK/hostile.json" || fail "dry-run -o json with hostile values"
python3 - "$WORK/hostile.yaml" "$WORK/hostile.json" <<'PY' || fail "PyYAML reads the --dry-run YAML differently from -o json"
import json, sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1], encoding="utf-8")) if d is not None]
assert docs == json.load(open(sys.argv[2]))["items"], "differs"
PY
OUT=$(kubectl --kubeconfig "$KCFG" apply -f "$WORK/hostile.yaml" 2>&1) || fail "kubectl apply of hostile values: $OUT"
kubectl --kubeconfig "$KCFG" get pytorchjobs.kubeflow.org hostile -o json >"$WORK/applied.json" || fail "kubectl get hostile"
python3 - "$WORK/applied.json" "$WORK/hostile.json" <<'PY' || fail "what kubectl applied differs from --dry-run -o json"
import json, sys
applied, want = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))["items"][0]
for path in (["metadata", "annotations", "example.com/h"],
             ["spec", "pytorchReplicaSpecs", "Master", "template", "spec", "containers", 0, "command"],
             ["spec", "pytorchReplicaSpecs", "Master", "template", "spec", "containers", 0, "env"]):
    a, w = applied, want
    for k in path:
        a, w = a[k], w[k]
    assert a == w, (path, a, w)
PY
echo "ok"
