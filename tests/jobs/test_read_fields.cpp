// The field sets of list reads (kube/field_set.h) against the readers they feed: a pod or
// node built with only its read's fields must give the same summary, claim and usage as
// the whole object, for pods in every state the readers tell apart and for objects shaped
// as a real kubelet and node controller write them (managedFields, env, volumes, images...).
#include <catch2/catch.hpp>
#include <sstream>

#include "job_fixtures.h"
#include "jobs/cluster/node_usage.h"
#include "jobs/diagnose/pending_reason.h"
#include "jobs/pod_summary.h"
#include "kube/page_stream.h"

using namespace trainctl;
using namespace trainctl::jobs;
using nlohmann::json;

namespace {

json built_with(const json& whole, const kube::FieldSet& fields) {
  return kube::parse_object(whole.dump(), "GET test", &fields);
}

std::string time_text(const std::optional<TimePoint>& t) {
  return t ? std::to_string(t->time_since_epoch().count()) : "-";
}

std::string describe(const PodSummary& s) {
  std::ostringstream o;
  const Instance& i = s.instance;
  o << i.name << '|' << i.status << '|' << i.phase << '|' << i.node_name << '|' << i.node_ip << '|' << i.gpus
    << '|' << i.gpu_index << '|' << time_text(i.created) << '|' << i.restarts << "|init:";
  for (const auto& c : i.init_containers) o << c << ',';
  o << "|containers:";
  for (const auto& c : i.containers) o << c << ',';
  o << '|' << s.namespace_ << "|labels:";
  for (const auto& [k, v] : s.labels) o << int(k) << '=' << v << ',';
  o << '|' << s.priority_class << '|' << time_text(s.latest_transition) << '|' << s.owner_request << '|'
    << s.started << '|' << s.pending_reason;
  return o.str();
}

std::string describe(const std::optional<PodGpuClaim>& c) {
  if (!c) return "none";
  std::ostringstream o;
  o << c->node << '|' << c->counts[0] << ',' << c->counts[1] << ',' << c->counts[2] << '|' << c->pod.namespace_
    << '|' << c->pod.name << '|' << c->pod.status << '|' << time_text(c->pod.created);
  return o.str();
}

// A pod as the kubelet and the training operator leave it: most of its bytes are fields no
// reader looks at.
json kubelet_pod() {
  return json::parse(R"({
  "apiVersion": "v1", "kind": "Pod",
  "metadata": {
    "name": "mnist-worker-1", "namespace": "team-a", "uid": "3f0c7c2e-8d1a-4b55-9a39-0d1c2b3a4f5e",
    "resourceVersion": "918273", "generateName": "mnist-worker-",
    "creationTimestamp": "2024-05-01T09:50:00Z",
    "labels": {"training.kubeflow.org/job-name": "mnist", "training.kubeflow.org/replica-type": "worker",
               "training.kubeflow.org/replica-index": "1", "training.kubeflow.org/operator-name": "pytorchjob-controller"},
    "annotations": {"requestGPUsOfJobOwner": "4", "ALIYUN_COM_GPU_MEM_IDX": "0,1",
                    "kubectl.kubernetes.io/last-applied-configuration": "{}"},
    "ownerReferences": [{"apiVersion": "kubeflow.org/v1", "kind": "PyTorchJob", "name": "mnist", "uid": "u", "controller": true}],
    "managedFields": [{"manager": "kubelet", "operation": "Update", "fieldsType": "FieldsV1", "fieldsV1": {"f:status": {}}}]
  },
  "spec": {
    "priorityClassName": "high",
    "initContainers": [{"name": "wait-master", "image": "busybox", "command": ["sh", "-c", "until nslookup m; do sleep 1; done"]},
                       {"name": "proxy", "image": "envoy", "restartPolicy": "Always"}],
    "containers": [{"name": "pytorch", "image": "pytorch:2.1", "command": ["python", "train.py"],
                    "env": [{"name": "MASTER_ADDR", "value": "mnist-master-0"}],
                    "ports": [{"containerPort": 23456, "name": "pytorchjob-port"}],
                    "resources": {"limits": {"nvidia.com/gpu": "2", "memory": "8Gi"}, "requests": {"cpu": "4", "example.com/rdma": "1"}},
                    "volumeMounts": [{"name": "data", "mountPath": "/data"}], "terminationMessagePolicy": "File"},
                   {"name": "sidecar", "image": "log-agent", "resources": {"limits": {"aliyun.com/gpu": 1}}}],
    "volumes": [{"name": "data", "persistentVolumeClaim": {"claimName": "train-data"}}],
    "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}],
    "nodeName": "gpu-node-7", "restartPolicy": "OnFailure", "schedulerName": "volcano",
    "securityContext": {}, "dnsPolicy": "ClusterFirst", "serviceAccountName": "default"
  },
  "status": {
    "phase": "Running", "hostIP": "192.168.0.37", "podIP": "10.244.3.9", "podIPs": [{"ip": "10.244.3.9"}],
    "startTime": "2024-05-01T09:51:00Z", "qosClass": "Burstable",
    "conditions": [{"type": "Initialized", "status": "True", "lastTransitionTime": "2024-05-01T09:51:30Z"},
                   {"type": "Ready", "status": "True", "lastProbeTime": null, "lastTransitionTime": "2024-05-01T09:52:00Z"},
                   {"type": "PodScheduled", "status": "True", "lastTransitionTime": "2024-05-01T09:50:30Z"}],
    "initContainerStatuses": [{"name": "wait-master", "ready": true, "restartCount": 0, "image": "busybox",
                               "state": {"terminated": {"exitCode": 0, "reason": "Completed"}}},
                              {"name": "proxy", "ready": true, "restartCount": 1, "started": true, "image": "envoy",
                               "state": {"running": {"startedAt": "2024-05-01T09:51:10Z"}}}],
    "containerStatuses": [{"name": "pytorch", "ready": true, "restartCount": 3, "started": true, "image": "pytorch:2.1",
                           "imageID": "docker-pullable://pytorch@sha256:abc", "containerID": "containerd://1",
                           "lastState": {"terminated": {"exitCode": 137, "reason": "OOMKilled"}},
                           "state": {"running": {"startedAt": "2024-05-01T09:55:00Z"}}},
                          {"name": "sidecar", "ready": true, "restartCount": 0, "image": "log-agent",
                           "state": {"running": {"startedAt": "2024-05-01T09:52:00Z"}}}]
  }
})");
}

std::vector<json> pods_in_every_state() {
  std::vector<json> pods;
  const json labels = pytorch_labels("mnist", "worker", 0);
  for (const char* phase : {"Pending", "Running", "Succeeded", "Failed"}) {
    pods.push_back(pod(std::string("p-") + phase, labels, phase, 1, "node-1"));
    pods.push_back(pod(std::string("u-") + phase, labels, phase, 2));
  }
  json whole = kubelet_pod();
  pods.push_back(whole);
  // Still initializing: Init:1/2.
  json init = whole;
  init["status"]["phase"] = "Pending";
  init["status"]["initContainerStatuses"][1]["state"] = {{"waiting", {{"reason", "PodInitializing"}}}};
  init["status"]["initContainerStatuses"][1]["ready"] = false;
  pods.push_back(init);
  // Being deleted; its node lost.
  json deleting = whole;
  deleting["metadata"]["deletionTimestamp"] = "2024-05-01T09:59:00Z";
  pods.push_back(deleting);
  deleting["status"]["reason"] = "NodeLost";
  pods.push_back(deleting);
  // Evicted.
  json evicted = whole;
  evicted["status"] = {{"phase", "Failed"}, {"reason", "Evicted"}, {"message", "The node was low on memory."}};
  pods.push_back(evicted);
  // Gated, and one that cannot pull its image.
  json gated = pod("gated", labels, "Pending", 1);
  gated["spec"]["schedulingGates"] = json::array({{{"name", "kueue.x-k8s.io/admission"}}});
  gated["status"]["conditions"][0]["reason"] = "SchedulingGated";
  pods.push_back(gated);
  json pull = whole;
  pull["status"]["phase"] = "Pending";
  pull["status"]["containerStatuses"][0]["state"] = {
      {"waiting", {{"reason", "ImagePullBackOff"}, {"message", "Back-off pulling image \"pytorch:2.1\""}}}};
  pull["status"]["containerStatuses"][0]["ready"] = false;
  pods.push_back(pull);
  // Other kinds' labels, one read from an annotation (an indexed batch/v1 Job's pod).
  pods.push_back(pod("mpi", mpi_labels("m", "launcher"), "Running", 0, "node-2"));
  pods.push_back(pod("vc", volcano_labels("v", "worker", 0), "Running", 1, "node-2"));
  json batch = pod("b", batch_labels("b", 0), "Running", 1, "node-3");
  batch["metadata"]["labels"].erase("batch.kubernetes.io/job-completion-index");
  batch["metadata"]["annotations"] = {{"batch.kubernetes.io/job-completion-index", "0"}};
  pods.push_back(batch);
  return pods;
}

json real_node() {
  return json::parse(R"({
  "apiVersion": "v1", "kind": "Node",
  "metadata": {"name": "gpu-node-7", "uid": "n1", "resourceVersion": "77", "creationTimestamp": "2024-01-01T00:00:00Z",
               "labels": {"kubernetes.io/hostname": "gpu-node-7", "node-role.kubernetes.io/worker": "",
                          "node-role.kubernetes.io/gpu": "", "ack.node.gpu.schedule": "topology"},
               "annotations": {"node.alpha.kubernetes.io/ttl": "0"},
               "managedFields": [{"manager": "kubelet"}]},
  "spec": {"podCIDR": "10.244.3.0/24", "taints": [{"key": "nvidia.com/gpu", "effect": "NoSchedule"}]},
  "status": {
    "capacity": {"cpu": "96", "memory": "754Gi", "nvidia.com/gpu": "8", "aliyun.com/gpu": "8"},
    "allocatable": {"cpu": "95", "memory": "750Gi", "nvidia.com/gpu": "7", "aliyun.com/gpu": "7"},
    "conditions": [{"type": "MemoryPressure", "status": "False"}, {"type": "Ready", "status": "True"}],
    "addresses": [{"type": "Hostname", "address": "gpu-node-7"}, {"type": "InternalIP", "address": "192.168.0.37"}],
    "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
    "nodeInfo": {"kubeletVersion": "v1.29.3", "containerRuntimeVersion": "containerd://1.7.13"},
    "images": [{"names": ["pytorch:2.1"], "sizeBytes": 9876543210}]
  }
})");
}

}  // namespace

TEST_CASE("a pod built with pod_summary_fields summarizes as the whole pod does") {
  for (const json& whole : pods_in_every_state()) {
    const json part = built_with(whole, pod_summary_fields());
    INFO(whole.dump());
    CHECK(describe(summarize_pod(part, true)) == describe(summarize_pod(whole, true)));
    CHECK(describe(summarize_pod(part, false)) == describe(summarize_pod(whole, false)));
  }
  // The fields are fewer: what is not read is not built.
  const json part = built_with(kubelet_pod(), pod_summary_fields());
  CHECK_FALSE(part["metadata"].contains("uid"));
  CHECK_FALSE(part["spec"].contains("tolerations"));
  CHECK_FALSE(part["spec"]["containers"][0].contains("ports"));
  CHECK(part["spec"]["containers"][0]["resources"]["requests"]["example.com/rdma"] == "1");
}

TEST_CASE("a pod built with gpu_claim_fields claims as the whole pod does") {
  for (const json& whole : pods_in_every_state()) {
    INFO(whole.dump());
    for (bool keep : {false, true})
      CHECK(describe(gpu_claim_of(built_with(whole, gpu_claim_fields(keep)), keep)) ==
            describe(gpu_claim_of(whole, keep)));
  }
  // The claim of a running pod on a node is what the whole pod gives, and is not empty.
  CHECK(describe(gpu_claim_of(built_with(kubelet_pod(), gpu_claim_fields(false)), false)) == "gpu-node-7|2,1,0||||-");
}

TEST_CASE("a node built with node_usage_fields gives the whole node's usage") {
  std::vector<json> nodes = {real_node()};
  json share = real_node();
  share["status"]["allocatable"]["aliyun.com/gpu-mem"] = "64";
  share["status"]["allocatable"]["aliyun.com/gpu-count"] = "4";
  share["status"]["capacity"]["aliyun.com/gpu-count"] = "4";
  nodes.push_back(share);
  json plain = real_node();
  plain["metadata"]["labels"] = {{"kubernetes.io/role", "master"}};
  plain["status"]["conditions"][1]["status"] = "False";
  plain["status"]["addresses"].erase(1);
  nodes.push_back(plain);
  for (const json& whole : nodes) {
    const NodeUsage from_part = node_usage_of(built_with(whole, node_usage_fields()));
    const NodeUsage from_whole = node_usage_of(whole);
    CHECK(from_part.to_json() == from_whole.to_json());
    CHECK(mode_name(from_part.mode) == mode_name(from_whole.mode));
  }
  CHECK(node_usage_of(built_with(real_node(), node_usage_fields())).total == 8);
}

TEST_CASE("nodes and pods built with the room's fields give the whole objects' room") {
  std::vector<json> nodes = {real_node()};
  json cordoned = real_node();
  cordoned["metadata"]["name"] = "cordoned";
  cordoned["spec"] = {{"unschedulable", true}};
  nodes.push_back(cordoned);
  json untainted = real_node();
  untainted["metadata"]["name"] = "untainted";
  untainted["spec"].erase("taints");
  nodes.push_back(untainted);
  auto room_of = [&](bool narrowed) {
    NodeRoomBuilder b;
    for (const json& n : nodes) b.add_node(narrowed ? built_with(n, node_room_fields()) : n);
    for (const json& p : pods_in_every_state()) {
      json on_node = p;
      if (on_node["spec"].value("nodeName", "").empty()) on_node["spec"]["nodeName"] = "untainted";
      b.add_pod(narrowed ? built_with(on_node, room_pod_fields()) : on_node);
    }
    std::ostringstream o;
    for (const auto& n : b.finish()) {
      o << n.name << ' ' << n.ready << n.unschedulable << ':';
      for (const auto& t : n.taints) o << t.key << '=' << t.value << ':' << t.effect << ',';
      for (const auto& [k, v] : n.labels) o << k << '=' << v << ',';
      for (const auto& [k, v] : n.allocatable) o << k << '=' << v << ',';
      for (const auto& [k, v] : n.free) o << k << '-' << v << ',';
      o << '\n';
    }
    return o.str();
  };
  CHECK(room_of(true) == room_of(false));
  CHECK_THAT(room_of(true), Catch::Contains("untainted 10:ack.node.gpu.schedule=topology,kubernetes.io/hostname="));
  CHECK_THAT(room_of(true), Catch::Contains("gpu-node-7 10:nvidia.com/gpu=:NoSchedule,"));
}

// list reads its pods straight from simdjson's parse of the page (pod_summary_read.cpp); the
// summary must be the one summarize_pod gives of the object nlohmann's parser builds of the
// same text, field by field (describe names each of them).
namespace {

std::vector<PodSummary> read_from_page(const std::vector<std::string>& items, bool containers) {
  std::string body = R"({"kind": "PodList", "apiVersion": "v1", "metadata": {}, "items": [)";
  for (size_t n = 0; n < items.size(); ++n) body += (n ? "," : "") + items[n];
  body += "]}";
  std::vector<PodSummary> out;
  kube::ListPage page(body, "GET test");
  page.hand_over_parsed([&](const kube::PageItem& p) { out.push_back(summarize_pod(p, containers)); });
  return out;
}

void check_both_readers(const std::vector<std::string>& items) {
  for (bool containers : {true, false}) {
    const auto read = read_from_page(items, containers);
    REQUIRE(read.size() == items.size());
    for (size_t n = 0; n < items.size(); ++n) {
      INFO(items[n]);
      CHECK(describe(read[n]) == describe(summarize_pod(json::parse(items[n]), containers)));
    }
  }
}

// Pods whose fields are null, missing, of the other type, escaped or repeated.
std::vector<std::string> odd_pods() {
  return {
      R"({"metadata": {"name": "nulls", "namespace": null, "labels": null, "annotations": null,
          "creationTimestamp": null, "deletionTimestamp": null},
          "spec": {"containers": null, "initContainers": null, "nodeName": null, "priorityClassName": null},
          "status": null})",
      R"({"metadata": {"name": "bare"}})",
      R"({})",
      R"({"metadata": {"name": "limits", "labels": {"training.kubeflow.org/job-name": 7,
          "training.kubeflow.org/replica-type": null, "volcano.sh/job-name": "v"}},
          "spec": {"containers": [
            {"name": "a", "resources": {"limits": {"nvidia.com/gpu": null, "alpha.kubernetes.io/nvidia-gpu": "3"}}},
            {"name": "b", "resources": {"limits": {"nvidia.com/gpu": 2, "aliyun.com/gpu": 1.0}}},
            {"name": "c", "resources": {"limits": {"nvidia.com/gpu": "1k", "aliyun.com/gpu": "4Ki"}}},
            {"name": "d", "resources": {"limits": {"nvidia.com/gpu": -1, "aliyun.com/gpu": 18446744073709551615}}},
            {"name": "e", "resources": {"limits": {"nvidia.com/gpu": true, "aliyun.com/gpu": {"x": 1}}}},
            {"name": "f", "resources": {"limits": "none"}}, {"name": 5}, 7]},
          "status": {"phase": "Running", "startTime": 5, "hostIP": ["10.0.0.1"],
            "containerStatuses": [
              {"name": "a", "restartCount": "4", "ready": 1, "started": "true",
               "state": {"terminated": {"exitCode": "1", "signal": 9.7}}},
              {"name": "b", "restartCount": 2.9, "state": {"waiting": null, "terminated": {"reason": null}}},
              {"name": "c", "restartCount": 18446744073709551615, "state": "running"}]}})",
      R"({"metadata": {"name": "esc\"aped\\ \u00e9\u2603", "namespace": "t\u0065am",
          "labels": {"training.kubeflow.org/job-name": "j\u006fb\n", "training.kubeflow.org/operator-name": "pytorchjob-controller"},
          "annotations": {"requestGPUsOfJobOwner": "\u0038", "ALIYUN_COM_GPU_MEM_IDX": "0,\u0031"}},
          "spec": {"nodeName": "n\t1", "containers": [{"name": "c\u00e9", "resources": {"limits": {"nvidia.com/gpu": "\u0032"}}}]},
          "status": {"phase": "Pending", "reason": "", "conditions": [
            {"type": "PodScheduled", "status": "False", "reason": "Unschedulable", "lastTransitionTime": "2024-05-01T09:51:00Z"},
            {"type": "PodScheduled", "status": "True", "reason": "SchedulingGated", "lastTransitionTime": "bad"},
            {"type": "Ready", "status": "True"}, {"type": "Ready", "status": "False"}, "odd", null]}})",
      R"({"metadata": {"name": "first", "name": "last", "labels": {"volcano.sh/job-name": "a", "volcano.sh/job-name": 3},
          "annotations": {"volcano.sh/task-spec": "t", "volcano.sh/task-spec": "u"}},
          "spec": {"nodeName": "x"}, "spec": {"containers": [{"name": "c", "resources": {"limits": {"nvidia.com/gpu": "1"}}}]},
          "status": {"phase": "Running", "phase": "Succeeded"}})",
      R"({"metadata": {"name": "init", "deletionTimestamp": "2024-05-01T09:59:00Z"},
          "spec": {"initContainers": [{"name": "side", "restartPolicy": "Always"}, {"name": "side", "restartPolicy": "Never"},
                                      {"name": "w"}]},
          "status": {"phase": "Pending", "conditions": [{"type": "Initialized", "status": "False"}],
            "initContainerStatuses": [{"name": "side", "started": true, "state": {"running": {}}},
                                      {"name": "w", "state": {"terminated": {"exitCode": 2, "signal": 0}}}]}})",
  };
}

}  // namespace

TEST_CASE("a pod read straight from its list page summarizes as the pod nlohmann builds of it") {
  std::vector<std::string> items;
  for (const json& p : pods_in_every_state()) items.push_back(p.dump());
  for (const auto& p : odd_pods()) items.push_back(p);
  check_both_readers(items);
}

TEST_CASE("a page of 3,000 pods of every state reads as its pods do one by one") {
  std::vector<std::string> items;
  const auto states = pods_in_every_state();
  const auto odd = odd_pods();
  for (size_t n = 0; n < 3000; ++n) {
    json p = states[n % states.size()];
    p["metadata"]["name"] = "pod-" + std::to_string(n);
    items.push_back(n % 7 == 0 ? odd[n % odd.size()] : p.dump());
  }
  check_both_readers(items);
}

TEST_CASE("the page reader's summary of an escaped, repeated and null-laden pod, checked by hand") {
  const auto odd = odd_pods();
  const auto read = read_from_page({odd[0], odd[3], odd[4], odd[5]}, true);
  REQUIRE(read.size() == 4);
  // Nulls read as absent.
  CHECK(read[0].instance.name == "nulls");
  CHECK(read[0].namespace_.empty());
  CHECK(read[0].labels.empty());
  CHECK_FALSE(read[0].instance.created);
  CHECK(read[0].instance.status.empty());
  // Numbers and strings: a label that is a number is no label; GPU limits count as quantities.
  CHECK(read[1].label("training.kubeflow.org/job-name").empty());
  CHECK(read[1].label("volcano.sh/job-name") == "v");
  CHECK(read[1].instance.gpus == 3 + 2 + 1 + 1000 + 4096 - 1);
  // "4" is no count, 2.9 counts 2, 2^64 - 1 wraps to -1 (nlohmann's get<long long> of it too).
  CHECK(read[1].instance.restarts == 1);
  CHECK_FALSE(read[1].started);
  // Escapes are unescaped.
  CHECK(read[2].instance.name == "esc\"aped\\ \xc3\xa9\xe2\x98\x83");
  CHECK(read[2].namespace_ == "team");
  CHECK(read[2].label("training.kubeflow.org/job-name") == "job\n");
  CHECK(read[2].owner_request == 8);
  CHECK(read[2].instance.gpu_index == "0,1");
  CHECK(read[2].instance.node_name == "n\t1");
  CHECK(read[2].instance.containers == std::vector<std::string>{"c\xc3\xa9"});
  CHECK(read[2].instance.gpus == 2);
  // The first PodScheduled condition decides; any gates it.
  CHECK(read[2].pending_reason == "Unschedulable");
  CHECK(read[2].instance.status == "SchedulingGated");
  CHECK(read[2].latest_transition == parse_time("2024-05-01T09:51:00Z"));
  // Of repeated keys, the last counts, whole objects included.
  CHECK(read[3].instance.name == "last");
  CHECK(read[3].label("volcano.sh/job-name").empty());
  CHECK(read[3].label("volcano.sh/task-spec") == "u");  // from the annotation, the label being absent
  CHECK(read[3].instance.node_name.empty());
  CHECK(read[3].instance.gpus == 1);
  CHECK(read[3].instance.phase == "Succeeded");
}
