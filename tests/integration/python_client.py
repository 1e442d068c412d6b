"""An independent client reads kubesim: the official Kubernetes Python client (Debian's
python3-kubernetes) deserialises every object into its typed models, which refuse objects
missing a required field, follows a watch and reads a log. Run by python_client.sh with a
kubeconfig and the names of a running job's objects; prints one line per check, exits 1 on the
first failure."""
import sys

from kubernetes import client, config, watch

kubeconfig, namespace = sys.argv[1], sys.argv[2]
config.load_kube_config(config_file=kubeconfig)
core = client.CoreV1Api()
batch = client.BatchV1Api()
apps = client.AppsV1Api()
custom = client.CustomObjectsApi()


def check(what, ok, detail=""):
    if not ok:
        print(f"FAIL: {what} {detail}")
        sys.exit(1)
    print(f"ok: {what}")


# Typed reads: the models' setters raise ValueError for a required field that is None.
nodes = core.list_node().items
check("nodes deserialise", len(nodes) > 0)
for n in nodes:
    info = n.status.node_info
    check(f"node {n.metadata.name} nodeInfo", info.boot_id and info.machine_id and info.kubelet_version
          and info.container_runtime_version and info.operating_system == "linux")
    check(f"node {n.metadata.name} addresses", any(a.type == "InternalIP" for a in n.status.addresses))
    check(f"node {n.metadata.name} kubelet endpoint", n.status.daemon_endpoints.kubelet_endpoint.port > 0)
    check(f"node {n.metadata.name} capacity", "cpu" in n.status.capacity and "cpu" in n.status.allocatable)
    ready = [c for c in n.status.conditions if c.type == "Ready"]
    check(f"node {n.metadata.name} Ready condition", ready and ready[0].status in ("True", "False", "Unknown"))

pods = core.list_namespaced_pod(namespace).items
check("pods deserialise", len(pods) > 0)
for p in pods:
    check(f"pod {p.metadata.name} has a phase and a node", p.status.phase and p.spec.node_name is not None)
core.list_namespaced_service(namespace)
core.list_namespaced_config_map(namespace)
core.list_namespaced_persistent_volume_claim(namespace)
core.list_namespaced_event(namespace)
core.list_namespace()
check("services, configmaps, PVCs, events, namespaces deserialise", True)
check("batch Jobs deserialise", batch.list_namespaced_job(namespace) is not None)
check("Deployments deserialise", apps.list_namespaced_deployment(namespace) is not None)

for group, version, plural in [("kubeflow.org", "v1", "pytorchjobs"), ("kubeflow.org", "v2beta1", "mpijobs"),
                               ("batch.volcano.sh", "v1alpha1", "jobs")]:
    items = custom.list_namespaced_custom_object(group, version, namespace, plural)["items"]
    check(f"{plural} list", len(items) > 0, f"(none in {namespace})")
    one = custom.get_namespaced_custom_object(group, version, namespace, plural, items[0]["metadata"]["name"])
    check(f"{plural} get", one["metadata"]["uid"] == items[0]["metadata"]["uid"])

# A watch: the initial ADDED events of the existing pods, typed, then the stream ends.
w = watch.Watch()
seen = set()
for event in w.stream(core.list_namespaced_pod, namespace, timeout_seconds=2):
    check_type = event["type"] in ("ADDED", "MODIFIED", "DELETED", "BOOKMARK")
    if not check_type:
        check("watch event type", False, event["type"])
    seen.add(event["object"].metadata.name)
check("watch delivers every pod", {p.metadata.name for p in pods} <= seen, f"{len(seen)} of {len(pods)}")

# A log, and the kubelet's timestamp format (RFC 3339 with nine fractional digits).
running = [p for p in pods if p.status.phase in ("Running", "Succeeded")]
check("a pod with a log", running)
log = core.read_namespaced_pod_log(running[0].metadata.name, namespace, timestamps=True, tail_lines=3)
lines = [l for l in log.splitlines() if l]
check("log lines", len(lines) > 0)
stamp = lines[0].split(" ", 1)[0]
check("log timestamps are RFC3339Nano with 9 digits", len(stamp) == 30 and stamp[19] == "." and stamp.endswith("Z"),
      stamp)
