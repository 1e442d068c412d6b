// Why a job is pending, from hand-written objects whose messages are worded as upstream writes
// them: kube-scheduler's FitError.Error (pkg/scheduler/framework/types.go: "0/%v nodes are
// available:", the sorted "%v %v" reason histogram, " preemption: ..." from PostFilter),
// noderesources "Insufficient %v", tainttoleration "node(s) had untolerated taint {%s: %s}";
// kube-apiserver's quota admission "exceeded quota: %s, requested: %s, used: %s, limited: %s"
// in training-operator's FailedCreatePod "Error creating: %v"; volcano's gang plugin
// "%v/%v tasks in gang unschedulable: %v"; kubelet's ErrImagePull / ImagePullBackOff.
#include <catch2/catch.hpp>

#include "jobs/diagnose/pending_reason.h"

using nlohmann::json;
using namespace trainctl::jobs;

namespace {

json pr_pod(const std::string& name, const std::string& node, const json& limits,
         const json& status = json::object()) {
  json p = {
      {"metadata", {{"name", name}, {"namespace", "default"}}},
      {"spec",
       {{"containers",
         json::array(
             {{{"name", "main"}, {"image", "pytorch/pytorch"}, {"resources", {{"limits", limits}}}}})}}},
      {"status", status}};
  if (!node.empty()) p["spec"]["nodeName"] = node;
  if (!p["status"].contains("phase")) p["status"]["phase"] = node.empty() ? "Pending" : "Running";
  return p;
}

json pr_event(const std::string& object, const std::string& reason, const std::string& message,
           const std::string& time = "2024-05-01T10:00:00Z", const std::string& kind = "Pod") {
  return {{"involvedObject", {{"kind", kind}, {"name", object}}},
          {"type", "Warning"},
          {"reason", reason},
          {"message", message},
          {"lastTimestamp", time}};
}

json pr_node(const std::string& name, const json& allocatable, bool ready = true) {
  return {{"metadata", {{"name", name}}},
          {"status",
           {{"allocatable", allocatable},
            {"conditions", json::array({{{"type", "Ready"}, {"status", ready ? "True" : "False"}}})}}}};
}

std::vector<NodeRoom> pr_rooms(const std::vector<json>& nodes, const std::vector<json>& pods) {
  NodeRoomBuilder b;
  for (const auto& n : nodes) b.add_node(n);
  for (const auto& p : pods) b.add_pod(p);
  return b.finish();
}

const std::string kTaintsAndGpus =
    "0/6 nodes are available: 3 Insufficient nvidia.com/gpu, 3 node(s) had untolerated taint "
    "{node-role.kubernetes.io/master: }. preemption: 0/6 nodes are available: 3 No preemption victims found "
    "for "
    "incoming pod, 3 Preemption is not helpful for scheduling.";

}  // namespace

TEST_CASE("FailedScheduling events are aggregated across the unscheduled pods") {
  std::vector<json> pods;
  std::vector<json> events;
  for (int i = 0; i < 4; ++i) {
    const std::string name = "dist-worker-" + std::to_string(i);
    pods.push_back(pr_pod(name, "", {{"nvidia.com/gpu", 2}}));
    events.push_back(pr_event(name, "FailedScheduling",
                           "0/6 nodes are available: 6 Insufficient nvidia.com/gpu.",
                           "2024-05-01T09:00:00Z"));
    events.push_back(pr_event(name, "FailedScheduling", kTaintsAndGpus, "2024-05-01T10:00:00Z"));
  }
  pods.push_back(pr_pod("dist-master-0", "node-1", {{"nvidia.com/gpu", 2}}));
  const auto r = scheduling_failure(pods, events);
  CHECK(r.reason == "Unschedulable");
  CHECK(r.message == "4 pods: " + kTaintsAndGpus);
  CHECK(r.details.empty());
}

TEST_CASE("one pod is named; a pod without events speaks through its PodScheduled condition") {
  json p = pr_pod("dist-worker-0", "", {{"nvidia.com/gpu", 1}},
                  {{"phase", "Pending"},
                   {"conditions",
                    json::array({{{"type", "PodScheduled"},
                                  {"status", "False"},
                                  {"reason", "Unschedulable"},
                                  {"message", "0/3 nodes are available: 3 node(s) were unschedulable."}}})}});
  const auto r = scheduling_failure({p}, {});
  CHECK(r.message == "pod dist-worker-0: 0/3 nodes are available: 3 node(s) were unschedulable.");
  CHECK(pod_pending_reason(p) == "Unschedulable");
}

TEST_CASE("a refused pod create names the quota") {
  const std::string refused =
      "Error creating: pods \"dist-worker-0\" is forbidden: exceeded quota: gpu-quota, requested: "
      "requests.nvidia.com/gpu=4, used: requests.nvidia.com/gpu=0, limited: requests.nvidia.com/gpu=2";
  const json e = pr_event("dist", "FailedCreatePod", refused, "2024-05-01T10:00:00Z", "PyTorchJob");
  const auto r = quota_refusal({e});
  CHECK(r.reason == "ExceededQuota");
  CHECK(r.message ==
        "pods are refused: exceeded quota: gpu-quota, requested: requests.nvidia.com/gpu=4, used: "
        "requests.nvidia.com/gpu=0, limited: requests.nvidia.com/gpu=2");
  CHECK(event_pending_reason(e) == "ExceededQuota");
  // Volcano lists its errors: "Error creating pods: [%+v]".
  const json v =
      pr_event("vc", "FailedCreate",
            "Error creating pods: [pods \"vc-worker-0\" is forbidden: exceeded quota: q, requested: pods=1, "
            "used: pods=2, limited: pods=2]",
            "2024-05-01T10:00:00Z", "Job");
  CHECK(quota_refusal({v}).message ==
        "pods are refused: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2");
  CHECK(quota_refusal({pr_event("dist", "FailedCreatePod", "Error creating: timeout")}).empty());
}

TEST_CASE("image pull failures: ImagePullBackOff wins over ErrImagePull, pods with one image are counted") {
  auto waiting = [](const std::string& reason, const std::string& message) {
    return json{{"phase", "Pending"},
                {"containerStatuses",
                 json::array({{{"name", "main"},
                               {"image", "pytorch/pytorhc"},
                               {"state", {{"waiting", {{"reason", reason}, {"message", message}}}}}}})}};
  };
  const json a = pr_pod("d-worker-0", "node-1", json::object(),
                     waiting("ImagePullBackOff", "Back-off pulling image \"pytorch/pytorhc\""));
  const json b = pr_pod("d-worker-1", "node-2", json::object(),
                     waiting("ImagePullBackOff", "Back-off pulling image \"pytorch/pytorhc\""));
  const auto r = image_pull_failure({a, b});
  CHECK(r.reason == "ImagePullBackOff");
  CHECK(r.message ==
        "2 pods cannot pull image \"pytorch/pytorhc\": Back-off pulling image \"pytorch/pytorhc\"");
  CHECK(pod_pending_reason(a) == "ImagePullBackOff");
  CHECK(image_pull_failure({pr_pod("x", "node-1", json::object())}).empty());
}

TEST_CASE("a Volcano PodGroup: Unschedulable condition, Pending vs Inqueue") {
  json pg = {
      {"metadata", {{"name", "vc-6a3f"}}},
      {"spec", {{"minMember", 4}, {"queue", "default"}}},
      {"status",
       {{"phase", "Inqueue"},
        {"conditions", json::array({{{"type", "Unschedulable"},
                                     {"status", "True"},
                                     {"reason", "NotEnoughResources"},
                                     {"message",
                                      "4/4 tasks in gang unschedulable: pod group is not ready, 4 Pending, "
                                      "4 minAvailable; Pending: 4 Unschedulable"}}})}}}};
  auto r = gang_unschedulable({pg});
  CHECK(r.reason == "GangUnschedulable");
  CHECK(r.message ==
        "PodGroup vc-6a3f (Inqueue, minMember 4): 4/4 tasks in gang unschedulable: pod group is not ready, 4 "
        "Pending, "
        "4 minAvailable; Pending: 4 Unschedulable");
  pg["status"] = {{"phase", "Pending"}};
  r = gang_unschedulable({pg});
  CHECK(r.reason == "PodGroupPending");
  CHECK(r.message.find("queue default has not admitted its 4 pods") != std::string::npos);
  pg["status"] = {{"phase", "Running"}};
  CHECK(gang_unschedulable({pg}).empty());
  CHECK(event_pending_reason(pr_event("vc-6a3f", "Unschedulable", "4/4 tasks in gang unschedulable: ...",
                                   "2024-05-01T10:00:00Z", "PodGroup")) == "GangUnschedulable");
}

TEST_CASE("fit check: a resource no node offers, with the --gputopology hint") {
  const auto nodes =
      pr_rooms({pr_node("n1", {{"nvidia.com/gpu", "8"}}), pr_node("n2", {{"nvidia.com/gpu", "8"}})}, {});
  const auto lines = fit_check({pr_pod("t-worker-0", "", {{"aliyun.com/gpu", 4}})}, nodes);
  REQUIRE(lines.size() == 1);
  CHECK(
      lines[0] ==
      "needs 4 × aliyun.com/gpu; no node offers aliyun.com/gpu — did you mean --gpus without --gputopology?");
  const auto two =
      fit_check({pr_pod("a", "", {{"example.com/fpga", 1}}), pr_pod("b", "", {{"example.com/fpga", 1}})}, nodes);
  CHECK(two ==
        std::vector<std::string>{"2 pods need 1 × example.com/fpga each; no node offers example.com/fpga"});
}

TEST_CASE("fit check: free GPUs are allocatable minus the requests of pods that have not ended") {
  const std::vector<json> running = {pr_pod("other-0", "n1", {{"nvidia.com/gpu", 6}}),
                                     pr_pod("other-1", "n2", {{"nvidia.com/gpu", 7}}),
                                     pr_pod("done", "n2", {{"nvidia.com/gpu", 8}}, {{"phase", "Succeeded"}})};
  const auto nodes = pr_rooms({pr_node("n1", {{"nvidia.com/gpu", "8"}}), pr_node("n2", {{"nvidia.com/gpu", "8"}}),
                            pr_node("n3", {{"nvidia.com/gpu", "8"}}, false)},
                           running);
  CHECK(nodes[0].free.at("nvidia.com/gpu") == 2);
  CHECK(nodes[1].free.at("nvidia.com/gpu") == 1);
  CHECK_FALSE(nodes[2].ready);
  CHECK(fit_check({pr_pod("big-worker-0", "", {{"nvidia.com/gpu", 8}})}, nodes) ==
        std::vector<std::string>{"needs 8 GPUs on one node, the most free on any node is 2"});
  CHECK(fit_check({pr_pod("huge", "", {{"nvidia.com/gpu", 16}})}, nodes) ==
        std::vector<std::string>{"needs 16 GPUs on one node, the largest schedulable node has 8"});
  CHECK(fit_check({pr_pod("small", "", {{"nvidia.com/gpu", 1}})}, nodes).empty());
  CHECK(placeable_pods({pr_pod("a", "", {{"nvidia.com/gpu", 1}}), pr_pod("b", "", {{"nvidia.com/gpu", 1}}),
                        pr_pod("c", "", {{"nvidia.com/gpu", 1}}), pr_pod("d", "", {{"nvidia.com/gpu", 1}})},
                       nodes) == 3);
}

namespace {

// GKE's GPU node pools: every GPU node tainted nvidia.com/gpu=present:NoSchedule, and the
// ExtendedResourceToleration admission plugin gives pods that ask for nvidia.com/gpu the
// toleration {key: nvidia.com/gpu, operator: Exists} (kubernetes
// plugin/pkg/admission/extendedresourcetoleration/admission.go).
json gke_gpu_node(const std::string& name, const std::string& pool) {
  json n = pr_node(name, {{"nvidia.com/gpu", "4"}});
  n["metadata"]["labels"] = {{"cloud.google.com/gke-nodepool", pool}, {"gpu-count", "4"}};
  n["spec"]["taints"] = json::array({{{"key", "nvidia.com/gpu"}, {"value", "present"}, {"effect", "NoSchedule"}}});
  return n;
}

json tolerating(json pod, const json& tolerations) {
  pod["spec"]["tolerations"] = tolerations;
  return pod;
}

const json kGpuToleration = json::array({{{"key", "nvidia.com/gpu"}, {"operator", "Exists"}, {"effect", "NoSchedule"}}});

}  // namespace

TEST_CASE("fit check: a taint the pod tolerates leaves the node in (TaintToleration)") {
  json cpu = pr_node("cpu-0", {{"example.com/none", "0"}});
  cpu["metadata"]["labels"] = {{"cloud.google.com/gke-nodepool", "default"}};
  const auto nodes = pr_rooms({gke_gpu_node("gpu-a", "gpu"), gke_gpu_node("gpu-b", "gpu"), cpu},
                              {pr_pod("busy", "gpu-a", {{"nvidia.com/gpu", 3}}),
                               pr_pod("half", "gpu-b", {{"nvidia.com/gpu", 2}})});
  const json big = tolerating(pr_pod("big-master-0", "", {{"nvidia.com/gpu", 8}}), kGpuToleration);
  CHECK(fit_check({big}, nodes) == std::vector<std::string>{"needs 8 GPUs on one node, the largest schedulable node has 4"});
  const json four = tolerating(pr_pod("four-master-0", "", {{"nvidia.com/gpu", 4}}), kGpuToleration);
  CHECK(fit_check({four}, nodes) == std::vector<std::string>{"needs 4 GPUs on one node, the most free on any node is 2"});
  const json two = tolerating(pr_pod("two-master-0", "", {{"nvidia.com/gpu", 2}}), kGpuToleration);
  CHECK(fit_check({two}, nodes).empty());
  CHECK(placeable_pods({two, two, two}, nodes) == 1);
  // Without the toleration only the CPU node may take it: it has no GPUs.
  CHECK(fit_check({pr_pod("bare", "", {{"nvidia.com/gpu", 2}})}, nodes) ==
        std::vector<std::string>{"needs 2 GPUs on one node, the largest schedulable node has 0"});
  CHECK(placeable_pods({pr_pod("bare", "", {{"nvidia.com/gpu", 2}})}, nodes) == 0);
  // An Equal toleration must name the taint's value; a toleration of another effect does not count.
  const json wrong_value = json::array({{{"key", "nvidia.com/gpu"}, {"operator", "Equal"}, {"value", "true"}}});
  const json other_effect = json::array({{{"key", "nvidia.com/gpu"}, {"operator", "Exists"}, {"effect", "NoExecute"}}});
  const json right_value = json::array({{{"key", "nvidia.com/gpu"}, {"value", "present"}}});
  const json everything = json::array({{{"operator", "Exists"}}});
  CHECK(placeable_pods({tolerating(two, wrong_value)}, nodes) == 0);
  CHECK(placeable_pods({tolerating(two, other_effect)}, nodes) == 0);
  CHECK(placeable_pods({tolerating(two, right_value)}, nodes) == 1);
  CHECK(placeable_pods({tolerating(two, everything)}, nodes) == 1);
}

TEST_CASE("fit check: no node the pod may use says which filters refused them") {
  const auto nodes = pr_rooms({gke_gpu_node("gpu-a", "gpu"), gke_gpu_node("gpu-b", "gpu")}, {});
  CHECK(fit_check({pr_pod("p", "", {{"nvidia.com/gpu", 1}}), pr_pod("q", "", {{"nvidia.com/gpu", 1}})}, nodes) ==
        std::vector<std::string>{"2 pods need 1 GPU on one node; no node may take them: 2 node(s) had untolerated "
                                 "taint {nvidia.com/gpu: present}"});
  json sel = tolerating(pr_pod("s", "", {{"nvidia.com/gpu", 1}}), kGpuToleration);
  sel["spec"]["nodeSelector"] = {{"cloud.google.com/gke-nodepool", "a100"}};
  CHECK(fit_check({sel}, nodes) == std::vector<std::string>{"needs 1 GPU on one node; no node may take it: 2 "
                                                            "node(s) didn't match Pod's node affinity/selector"});
}

TEST_CASE("fit check: cordoned and not Ready nodes, unless the pod tolerates their taints") {
  json cordoned = pr_node("cordoned", {{"nvidia.com/gpu", "8"}});
  cordoned["spec"] = {{"unschedulable", true}};
  const auto nodes =
      pr_rooms({cordoned, pr_node("down", {{"nvidia.com/gpu", "8"}}, false), pr_node("up", {{"nvidia.com/gpu", "2"}})}, {});
  const json p = pr_pod("p", "", {{"nvidia.com/gpu", 8}});
  CHECK(fit_check({p}, nodes) == std::vector<std::string>{"needs 8 GPUs on one node, the largest schedulable node has 2"});
  // NodeUnschedulable: tolerating node.kubernetes.io/unschedulable is tolerating the cordon.
  const json cordon_ok = tolerating(p, json::array({{{"key", "node.kubernetes.io/unschedulable"}, {"operator", "Exists"}}}));
  CHECK(fit_check({cordon_ok}, nodes).empty());
  const json not_ready_ok = tolerating(p, json::array({{{"key", "node.kubernetes.io/not-ready"}, {"operator", "Exists"}}}));
  CHECK(fit_check({not_ready_ok}, nodes).empty());
}

TEST_CASE("fit check: nodeSelector and required node affinity (NodeAffinity)") {
  json a = gke_gpu_node("gpu-a", "a100"), b = gke_gpu_node("gpu-b", "t4");
  b["metadata"]["labels"]["gpu-count"] = "8";
  b["status"]["allocatable"]["nvidia.com/gpu"] = "8";
  const auto nodes = pr_rooms({a, b}, {});
  const json pod = tolerating(pr_pod("p", "", {{"nvidia.com/gpu", 8}}), kGpuToleration);
  auto with_terms = [&](const json& terms) {
    json p = pod;
    p["spec"]["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"] =
        terms;
    return placeable_pods({p}, nodes);
  };
  auto expr = [](const std::string& key, const std::string& op, const json& values) {
    json e = {{"key", key}, {"operator", op}};
    if (!values.is_null()) e["values"] = values;
    return e;
  };
  const std::string pool = "cloud.google.com/gke-nodepool";
  CHECK(placeable_pods({pod}, nodes) == 1);
  json selected = pod;
  selected["spec"]["nodeSelector"] = {{pool, "a100"}};
  CHECK(placeable_pods({selected}, nodes) == 0);
  CHECK(fit_check({selected}, nodes) ==
        std::vector<std::string>{"needs 8 GPUs on one node, the largest schedulable node has 4"});
  CHECK(with_terms(json::array({{{"matchExpressions", json::array({expr(pool, "In", {"t4", "l4"})})}}})) == 1);
  CHECK(with_terms(json::array({{{"matchExpressions", json::array({expr(pool, "NotIn", {"t4"})})}}})) == 0);
  CHECK(with_terms(json::array({{{"matchExpressions", json::array({expr("gpu-count", "Gt", {"4"})})}}})) == 1);
  CHECK(with_terms(json::array({{{"matchExpressions", json::array({expr("gpu-count", "Lt", {"8"})})}}})) == 0);
  CHECK(with_terms(json::array({{{"matchExpressions", json::array({expr("gpu-count", "Gt", {"four"})})}}})) == 0);
  CHECK(with_terms(json::array({{{"matchExpressions", json::array({expr("spot", "DoesNotExist", nullptr)})}}})) == 1);
  CHECK(with_terms(json::array({{{"matchExpressions", json::array({expr("spot", "Exists", nullptr)})}}})) == 0);
  // Terms are ORed, a term's expressions ANDed; an empty term matches nothing.
  CHECK(with_terms(json::array({{{"matchExpressions", json::array({expr(pool, "In", {"a100"})})}},
                                {{"matchExpressions", json::array({expr(pool, "In", {"t4"})})}}})) == 1);
  CHECK(with_terms(json::array({{{"matchExpressions",
                                  json::array({expr(pool, "In", {"t4"}), expr("gpu-count", "In", {"4"})})}}})) == 0);
  CHECK(with_terms(json::array({json::object()})) == 0);
  // matchFields: metadata.name, In or NotIn with one value.
  CHECK(with_terms(json::array({{{"matchFields", json::array({expr("metadata.name", "In", {"gpu-b"})})}}})) == 1);
  CHECK(with_terms(json::array({{{"matchFields", json::array({expr("metadata.name", "NotIn", {"gpu-b"})})}}})) == 0);
}

TEST_CASE("diagnose: the gang first, scheduling and the gang minimum as details") {
  PendingFacts f;
  for (int i = 0; i < 4; ++i) {
    const std::string name = "vc-worker-" + std::to_string(i);
    f.pods.push_back(pr_pod(name, "", {{"nvidia.com/gpu", 2}}));
    f.events.push_back(
        pr_event(name, "FailedScheduling", "0/2 nodes are available: 2 Insufficient nvidia.com/gpu."));
  }
  f.pod_groups.push_back(
      {{"metadata", {{"name", "vc-1"}}},
       {"spec", {{"minMember", 4}}},
       {"status",
        {{"phase", "Inqueue"},
         {"conditions", json::array({{{"type", "Unschedulable"},
                                      {"status", "True"},
                                      {"message", "4/4 tasks in gang unschedulable: x"}}})}}}});
  f.nodes = pr_rooms({pr_node("n1", {{"nvidia.com/gpu", "2"}}), pr_node("n2", {{"nvidia.com/gpu", "4"}})}, {});
  const auto r = diagnose_pending(f);
  CHECK(r.reason == "GangUnschedulable");
  CHECK(r.message == "PodGroup vc-1 (Inqueue, minMember 4): 4/4 tasks in gang unschedulable: x");
  REQUIRE(r.details.size() == 2);
  CHECK(r.details[0] == "4 pods: 0/2 nodes are available: 2 Insufficient nvidia.com/gpu.");
  CHECK(r.details[1] == "the gang needs 4 pods at once; the nodes' free GPUs can place 3");
  const auto j = r.to_json();
  CHECK(j["reason"] == "GangUnschedulable");
  CHECK(j["details"].size() == 2);
}

TEST_CASE("diagnose: a quota refusal comes first; nothing to say gives an empty reason") {
  PendingFacts f;
  f.events.push_back(
      pr_event("d", "FailedCreatePod",
            "Error creating: pods \"d-worker-0\" is forbidden: exceeded quota: q, requested: pods=1, "
            "used: pods=1, limited: pods=1",
            "2024-05-01T10:00:00Z", "PyTorchJob"));
  f.pods.push_back(pr_pod("d-master-0", "", {{"nvidia.com/gpu", 1}}));
  f.nodes = pr_rooms({pr_node("n1", {{"nvidia.com/gpu", "1"}})}, {});
  CHECK(diagnose_pending(f).reason == "ExceededQuota");
  CHECK(diagnose_pending(PendingFacts{}).empty());
}
