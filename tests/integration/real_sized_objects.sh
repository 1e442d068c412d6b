#!/usr/bin/env bash
# kubesim's generated cluster with objects=real (the benchmark's cluster: pods, jobs and nodes
# as kube-apiserver returns them, managedFields, defaults, the kubelet's full status) is read
# by the independent clients: kubectl decodes it into its typed objects (describe, -o json),
# the Python client into its models (which refuse a missing required field); the objects are
# several times the lean ones; trainctl lists every job.
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
PY=/usr/bin/python3
[[ -x "$PY" ]] && "$PY" -c "import kubernetes" 2>/dev/null || skip_or_fail "python3-kubernetes is not installed"
command -v kubectl >/dev/null || skip_or_fail "kubectl is not installed"
k() { kubectl --kubeconfig "$KCFG" "$@"; }

GEN=nodes=12,jobs=20,pods=60,trainjobs=4,namespaces=2
# Only the generated cluster (the default seed's nodes are lean).
echo "namespaces: [default]" >"$WORK/empty.yaml"
export KUBESIM_SEED=$WORK/empty.yaml
# bytes_per_pod: the body of an unpaged pod list over its items.
bytes_per_pod() {
  local n b
  n=$(k get pods -A -o name | wc -l)
  b=$(k get --raw /api/v1/pods | wc -c)
  echo $((b / n))
}

start_kubesim --no-controllers --generate "$GEN"
lean=$(bytes_per_pod)
lean_jobs=$(tc list -A | tail -n +2 | wc -l)

start_kubesim --no-controllers --generate "$GEN,objects=real"
real=$(bytes_per_pod)
echo "bytes per pod: lean $lean, real $real"
((real >= 4 * lean)) || fail "real-sized pods are $real bytes, lean ones $lean: expected at least 4x"

# kubectl: typed decoding (describe reads v1.Pod, v1.Node), and every object as JSON.
pods=$(k get pods -n team-0 -o name)
pod=${pods%%$'\n'*}
node=$(k get nodes -o name | tail -1)
OUT=$(k describe -n team-0 "$pod" 2>&1) || fail "kubectl describe $pod: $OUT"
grep -q "kube-api-access-" <<<"$OUT" || fail "describe shows no projected token volume: $OUT"
grep -q "node.kubernetes.io/not-ready:NoExecute op=Exists for 300s" <<<"$OUT" || fail "describe shows no default tolerations: $OUT"
grep -Eq "Container ID: +containerd://[0-9a-f]{64}" <<<"$OUT" || fail "describe shows no container ID: $OUT"
OUT=$(k describe "$node" 2>&1) || fail "kubectl describe $node: $OUT"
for what in pods nodes pytorchjobs.kubeflow.org mpijobs.kubeflow.org jobs.batch.volcano.sh jobs.batch \
  trainjobs.trainer.kubeflow.org jobsets.jobset.x-k8s.io; do
  k get "$what" -A -o json --show-managed-fields | "$PY" -c '
import json, sys
items = json.load(sys.stdin)["items"]
assert items, "no items"
missing = [i["metadata"]["name"] for i in items if not i["metadata"].get("managedFields")]
assert not missing, "without managedFields: %s" % missing[:3]
' || fail "kubectl get $what -A -o json: not every object is there with managedFields"
done
OUT=$(k get pods -A 2>&1) || fail "kubectl get pods -A: $OUT"

# The Python client's typed models.
"$PY" - "$KCFG" <<'PY' || fail "the Python client refused the real-sized cluster"
import sys
from kubernetes import client, config
config.load_kube_config(config_file=sys.argv[1])
core, batch, custom = client.CoreV1Api(), client.BatchV1Api(), client.CustomObjectsApi()
pods = core.list_pod_for_all_namespaces().items
assert pods, "no pods"
for p in pods:
    assert p.metadata.managed_fields and p.metadata.managed_fields[0].fields_v1, p.metadata.name
    assert any(m.subresource == "status" and m.manager == "kubelet" for m in p.metadata.managed_fields), p.metadata.name
    assert any(v.projected for v in p.spec.volumes), p.metadata.name
    assert any(t.key == "node.kubernetes.io/unreachable" and t.toleration_seconds == 300 for t in p.spec.tolerations)
    assert p.status.qos_class and p.status.pod_i_ps and len(p.status.conditions) >= 4, p.metadata.name
    for s in p.status.container_statuses:
        assert s.container_id.startswith("containerd://") and "@sha256:" in s.image_id, p.metadata.name
nodes = core.list_node().items
assert all(n.status.images and n.metadata.managed_fields and n.spec.pod_cidr for n in nodes)
jobs = batch.list_job_for_all_namespaces().items
assert jobs and all(j.metadata.managed_fields for j in jobs)
for group, version, plural in [("kubeflow.org", "v1", "pytorchjobs"), ("kubeflow.org", "v2beta1", "mpijobs"),
                               ("batch.volcano.sh", "v1alpha1", "jobs"), ("trainer.kubeflow.org", "v1alpha1", "trainjobs"),
                               ("jobset.x-k8s.io", "v1alpha2", "jobsets")]:
    items = custom.list_cluster_custom_object(group, version, plural)["items"]
    assert items and all(i["metadata"]["managedFields"] for i in items), plural
print("ok: the Python client read %d pods, %d nodes, %d batch Jobs" % (len(pods), len(nodes), len(jobs)))
PY

# trainctl lists the same jobs as on the lean cluster.
real_jobs=$(tc list -A | tail -n +2 | wc -l)
[[ "$real_jobs" == "$lean_jobs" && "$real_jobs" -ge 24 ]] || fail "trainctl list -A: $real_jobs jobs, $lean_jobs on the lean cluster"
echo "ok"
