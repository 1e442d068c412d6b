"""The official Kubernetes Python client (Debian's python3-kubernetes) reads what kubesim serves
for Kubeflow Trainer v2: TrainJobs, JobSets and (Cluster)TrainingRuntimes through
CustomObjectsApi (list, get, a watch), and the JobSet's Jobs, pods and headless Service through
the typed models, which refuse an object missing a required field. Run by kubectl_trainjob.sh
with a kubeconfig and a namespace holding a completed TrainJob `done`; prints one line per
check, exits 1 on the first failure."""
import sys

from kubernetes import client, config, watch

kubeconfig, namespace = sys.argv[1], sys.argv[2]
config.load_kube_config(config_file=kubeconfig)
core = client.CoreV1Api()
batch = client.BatchV1Api()
custom = client.CustomObjectsApi()


def check(what, ok, detail=""):
    if not ok:
        print(f"FAIL: {what} {detail}")
        sys.exit(1)
    print(f"ok: {what}")


trainjobs = custom.list_namespaced_custom_object("trainer.kubeflow.org", "v1alpha1", namespace, "trainjobs")["items"]
check("trainjobs list", any(t["metadata"]["name"] == "done" for t in trainjobs))
done = custom.get_namespaced_custom_object("trainer.kubeflow.org", "v1alpha1", namespace, "trainjobs", "done")
conditions = {c["type"]: c for c in done["status"]["conditions"]}
check("trainjob Complete", conditions["Complete"]["status"] == "True"
      and conditions["Complete"]["reason"] == "AllJobsCompleted", str(conditions))
check("trainjob jobsStatus", done["status"]["jobsStatus"][0]["name"] == "node")
status = custom.get_namespaced_custom_object_status("trainer.kubeflow.org", "v1alpha1", namespace, "trainjobs", "done")
check("trainjob /status", status["status"] == done["status"])

jobset = custom.get_namespaced_custom_object("jobset.x-k8s.io", "v1alpha2", namespace, "jobsets", "done")
check("jobset owned by the TrainJob", jobset["metadata"]["ownerReferences"][0]["uid"] == done["metadata"]["uid"])
check("jobset terminalState", jobset["status"]["terminalState"] == "Completed")
runtimes = custom.list_cluster_custom_object("trainer.kubeflow.org", "v1alpha1", "clustertrainingruntimes")["items"]
check("clustertrainingruntimes", {"torch-distributed", "deepspeed-distributed"} <= {r["metadata"]["name"] for r in runtimes})
custom.list_namespaced_custom_object("trainer.kubeflow.org", "v1alpha1", namespace, "trainingruntimes")
check("trainingruntimes list", True)

# Typed reads of what the JobSet made.
selector = "jobset.sigs.k8s.io/jobset-name=done"
jobs = batch.list_namespaced_job(namespace, label_selector=selector).items
check("the JobSet's Job", [j.metadata.name for j in jobs] == ["done-node-0"])
check("Job indexed", jobs[0].spec.completion_mode == "Indexed" and jobs[0].spec.completions == 2)
pods = core.list_namespaced_pod(namespace, label_selector=selector).items
check("pods deserialise", len(pods) == 2)
check("pod hostnames", sorted(p.spec.hostname for p in pods) == ["done-node-0-0", "done-node-0-1"])
check("pod subdomain", all(p.spec.subdomain == "done" for p in pods))
svc = core.read_namespaced_service("done", namespace)
check("headless Service", svc.spec.cluster_ip == "None" and svc.spec.selector == {"jobset.sigs.k8s.io/jobset-name": "done"})

# A watch: the TrainJobs' initial ADDED events, then the stream ends.
seen = set()
w = watch.Watch()
for event in w.stream(custom.list_namespaced_custom_object, "trainer.kubeflow.org", "v1alpha1", namespace,
                      "trainjobs", timeout_seconds=2):
    seen.add(event["object"]["metadata"]["name"])
check("watch delivers the TrainJobs", {t["metadata"]["name"] for t in trainjobs} <= seen, str(seen))
