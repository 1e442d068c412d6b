// Generated objects dressed as a real kube-apiserver returns them (see seed_real_size.h).
#include "kubesim/seed_real_size.h"

#include <algorithm>
#include <functional>

#include "kubesim/seed_objects.h"

namespace kubesim {

using nlohmann::json;

namespace {

json keyed(const char* key, const json& value) { return "k:" + json{{key, value}}.dump(); }

// The element key of a list the API types merge by key (x-kubernetes-list-map-keys in the
// OpenAPI schemas), or "" for an atomic list.
std::string element_key(const json& element) {
  if (!element.is_object()) return "";
  if (element.contains("containerPort"))
    return "k:" + json{{"containerPort", element["containerPort"]}, {"protocol", element.value("protocol", "TCP")}}.dump();
  if (element.contains("mountPath")) return keyed("mountPath", element["mountPath"]);
  if (element.contains("name") && element["name"].is_string()) return keyed("name", element["name"]);
  if (element.contains("type") && element["type"].is_string()) return keyed("type", element["type"]);
  if (element.contains("uid")) return keyed("uid", element["uid"]);
  return "";
}

json member_fields(const json& v, bool top);

// The set of an object's keys; `top`: the object's own fields (metadata, spec, status), which
// carry no "." of their own.
json fields_of(const json& value, bool top) {
  json f = json::object();
  if (!value.is_object()) return f;
  for (auto it = value.begin(); it != value.end(); ++it) f["f:" + it.key()] = member_fields(*it, top);
  return f;
}

json member_fields(const json& v, bool top) {
  if (v.is_object() && !v.empty()) {
    json f = fields_of(v, false);
    if (!top) f["."] = json::object();
    return f;
  }
  if (v.is_array() && !v.empty() && !element_key(v[0]).empty()) {
    json f = {{".", json::object()}};
    for (const auto& e : v) f[element_key(e)] = member_fields(e, false);
    return f;
  }
  return json::object();
}

// 64 hex digits, the same for the same name and salt.
std::string digest(const std::string& name, const char* salt) {
  return hex_id(name, salt) + hex_id(name, (std::string(salt) + "'").c_str());
}

json condition(const char* type, const std::string& status, const std::string& at, const std::string& reason = "") {
  json c = {{"type", type}, {"status", status}, {"lastProbeTime", nullptr}, {"lastTransitionTime", at}};
  if (!reason.empty()) c["reason"] = reason;
  return c;
}

// Appends `value` to the array at object[key], made when absent.
void add_to(json& object, const char* key, json value) {
  json& list = object[key];
  if (!list.is_array()) list = json::array();
  list.push_back(std::move(value));
}

json managed(const std::string& manager, const std::string& api_version, const std::string& at, json fields,
             const char* subresource = nullptr) {
  json m = {{"manager", manager},       {"operation", "Update"}, {"apiVersion", api_version},
            {"time", at},               {"fieldsType", "FieldsV1"}, {"fieldsV1", std::move(fields)}};
  if (subresource) m["subresource"] = subresource;
  return m;
}

}  // namespace

json fields_v1(const json& value) { return fields_of(value, true); }

void dress_pod(json& pod, const std::string& manager, const json& env, const std::string& created,
               const std::string& started) {
  json& md = pod["metadata"];
  json& spec = pod["spec"];
  json& status = pod["status"];
  const std::string name = md.value("name", "");
  // The ServiceAccount admission's projected token volume (kubernetes/kubernetes
  // plugin/pkg/admission/serviceaccount/admission.go, TokenVolumeSource): kube-api-access-<5>.
  const std::string token_volume = "kube-api-access-" + hex_id(name, "sa").substr(0, 5);
  bool extended = false;
  for (json& c : spec["containers"]) {
    c["imagePullPolicy"] = "IfNotPresent";
    c["terminationMessagePath"] = "/dev/termination-log";
    c["terminationMessagePolicy"] = "File";
    if (!c.contains("resources") || !c["resources"].is_object()) c["resources"] = json::object();
    json& r = c["resources"];
    if (r.contains("limits")) {
      r["requests"] = r["limits"];  // requests default to limits (core/v1 defaults.go)
      extended = true;
    }
    for (const auto& v : env) add_to(c, "env", v);
    add_to(c, "volumeMounts", {{"name", "dshm"}, {"mountPath", "/dev/shm"}});
    add_to(c, "volumeMounts", {{"name", token_volume},
                               {"mountPath", "/var/run/secrets/kubernetes.io/serviceaccount"},
                               {"readOnly", true}});
  }
  spec["dnsPolicy"] = "ClusterFirst";
  spec["enableServiceLinks"] = true;
  spec["preemptionPolicy"] = "PreemptLowerPriority";
  spec["priority"] = 0;
  spec["securityContext"] = json::object();
  spec["serviceAccount"] = "default";
  spec["serviceAccountName"] = "default";
  spec["terminationGracePeriodSeconds"] = 30;
  // DefaultTolerationSeconds (plugin/pkg/admission/defaulttolerationseconds) and, for a pod
  // asking for an extended resource, ExtendedResourceToleration (.../extendedresourcetoleration).
  if (extended) add_to(spec, "tolerations", {{"key", "nvidia.com/gpu"}, {"operator", "Exists"}, {"effect", "NoSchedule"}});
  for (const char* key : {"node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"})
    add_to(spec, "tolerations", {{"key", key}, {"operator", "Exists"}, {"effect", "NoExecute"}, {"tolerationSeconds", 300}});
  add_to(spec, "volumes", {{"name", "dshm"}, {"emptyDir", {{"medium", "Memory"}}}});
  add_to(spec, "volumes",
       {{"name", token_volume},
        {"projected",
         {{"defaultMode", 420},
          {"sources",
           json::array({{{"serviceAccountToken", {{"expirationSeconds", 3607}, {"path", "token"}}}},
                        {{"configMap", {{"name", "kube-root-ca.crt"}, {"items", json::array({{{"key", "ca.crt"}, {"path", "ca.crt"}}})}}}},
                        {{"downwardAPI",
                          {{"items", json::array({{{"path", "namespace"},
                                                   {"fieldRef", {{"apiVersion", "v1"}, {"fieldPath", "metadata.namespace"}}}}})}}}}})}}}});

  // Status as the kubelet writes it: every condition, each at or before the times generated
  // (trainctl reads the newest transition).
  std::string ready = "False";
  for (const auto& c : status.value("conditions", json::array()))
    if (c.value("type", "") == "Ready") ready = c.value("status", "False");
  const std::string phase = status.value("phase", "");
  const std::string done = phase == "Succeeded" || phase == "Failed" ? "PodCompleted" : "";
  status["conditions"] = json::array({condition("PodReadyToStartContainers", ready, started),
                                      condition("Initialized", "True", started, done),
                                      condition("Ready", ready, started, done),
                                      condition("ContainersReady", ready, started, done),
                                      condition("PodScheduled", "True", created)});
  for (const char* key : {"hostIP", "podIP"})
    if (status.contains(key)) status[std::string(key) + "s"] = json::array({{{"ip", status[key]}}});
  status["qosClass"] = "BestEffort";  // no cpu or memory asked for
  size_t i = 0;
  for (json& s : status["containerStatuses"]) {
    const json& c = spec["containers"][std::min(i++, spec["containers"].size() - 1)];
    const std::string image = s.value("image", "");
    const std::string id = "containerd://" + digest(name + s.value("name", ""), "container");
    s["containerID"] = id;
    s["imageID"] = image.substr(0, image.rfind(':')) + "@sha256:" + digest(image, "image");
    s["lastState"] = json::object();
    s["started"] = s["state"].contains("running");
    if (s["state"].contains("terminated")) s["state"]["terminated"]["containerID"] = id;
    s["resources"] = c.value("resources", json::object());
    json mounts = json::array();
    for (const auto& m : c["volumeMounts"]) {
      json v = m;
      if (v.value("readOnly", false)) v["recursiveReadOnly"] = "Disabled";
      mounts.push_back(v);
    }
    s["volumeMounts"] = mounts;
  }

  json own = {{"metadata", {{"labels", md.value("labels", json::object())},
                            {"ownerReferences", md.value("ownerReferences", json::array())}}},
              {"spec", spec}};
  if (md.contains("annotations")) own["metadata"]["annotations"] = md["annotations"];
  md["managedFields"] = json::array({managed(manager, "v1", created, fields_v1(own)),
                                     managed("kubelet", "v1", started, fields_v1({{"status", status}}), "status")});
}

void dress_job(json& job, const std::string& manager, const std::string& created, const std::string& updated) {
  json& md = job["metadata"];
  const std::string api = job.value("apiVersion", "");
  json applied = {{"apiVersion", api},
                  {"kind", job.value("kind", "")},
                  {"metadata",
                   {{"annotations", json::object()},
                    {"labels", md.value("labels", json::object())},
                    {"name", md.value("name", "")},
                    {"namespace", md.value("namespace", "")}}},
                  {"spec", job.value("spec", json::object())}};
  md["annotations"]["kubectl.kubernetes.io/last-applied-configuration"] = applied.dump() + "\n";
  md["generation"] = 1;
  json own = {{"metadata", {{"annotations", md["annotations"]}, {"labels", md.value("labels", json::object())}}},
              {"spec", job.value("spec", json::object())}};
  json managed_fields = json::array({managed("kubectl-client-side-apply", api, created, fields_v1(own))});
  if (job.contains("status"))
    managed_fields.push_back(managed(manager, api, updated, fields_v1({{"status", job["status"]}}), "status"));
  md["managedFields"] = managed_fields;
}

void dress_node(json& node, const std::string& since) {
  json& md = node["metadata"];
  json& spec = node["spec"];
  json& status = node["status"];
  const std::string name = md.value("name", "");
  const bool gpu = status["capacity"].contains("nvidia.com/gpu");
  json& labels = md["labels"];
  labels["node.kubernetes.io/instance-type"] = gpu ? "ecs.gn7-c12g1.24xlarge" : "ecs.g7.2xlarge";
  labels["topology.kubernetes.io/region"] = "cn-beijing";
  labels["topology.kubernetes.io/zone"] = "cn-beijing-i";
  labels["failure-domain.beta.kubernetes.io/region"] = "cn-beijing";
  labels["failure-domain.beta.kubernetes.io/zone"] = "cn-beijing-i";
  // node-feature-discovery (kubernetes-sigs/node-feature-discovery) and NVIDIA's GPU
  // feature discovery (NVIDIA/gpu-feature-discovery) labels.
  for (const char* f : {"cpu-cpuid.ADX", "cpu-cpuid.AESNI", "cpu-cpuid.AVX", "cpu-cpuid.AVX2", "cpu-cpuid.AVX512BW",
                        "cpu-cpuid.AVX512CD", "cpu-cpuid.AVX512DQ", "cpu-cpuid.AVX512F", "cpu-cpuid.AVX512VL",
                        "cpu-cpuid.FMA3", "cpu-cpuid.SHA", "cpu-hardware_multithreading", "kernel-config.NO_HZ",
                        "pci-10de.present", "pci-1d0f.present", "storage-nonrotationaldisk", "system-os_release.ID",
                        "system-os_release.VERSION_ID", "kernel-version.full", "kernel-version.major"})
    labels[std::string("feature.node.kubernetes.io/") + f] = "true";
  if (gpu) {
    labels["nvidia.com/cuda.driver.major"] = "550";
    labels["nvidia.com/cuda.driver.minor"] = "127";
    labels["nvidia.com/cuda.driver.rev"] = "08";
    labels["nvidia.com/cuda.runtime.major"] = "12";
    labels["nvidia.com/cuda.runtime.minor"] = "4";
    labels["nvidia.com/gfd.timestamp"] = "1730000000";
    labels["nvidia.com/gpu.compute.major"] = "8";
    labels["nvidia.com/gpu.compute.minor"] = "0";
    labels["nvidia.com/gpu.family"] = "ampere";
    labels["nvidia.com/gpu.machine"] = "Alibaba-Cloud-ECS";
    labels["nvidia.com/gpu.product"] = "NVIDIA-A100-SXM4-80GB";
    labels["nvidia.com/gpu.replicas"] = "1";
    labels["nvidia.com/mig.capable"] = "true";
    labels["nvidia.com/mig.strategy"] = "single";
  }
  md["annotations"] = {{"node.alpha.kubernetes.io/ttl", "0"},
                       {"volumes.kubernetes.io/controller-managed-attach-detach", "true"},
                       {"csi.volume.kubernetes.io/nodeid", json{{"diskplugin.csi.alibabacloud.com", "i-" + hex_id(name, "ecs").substr(0, 20)}}.dump()},
                       {"nfd.node.kubernetes.io/master.version", "v0.16.4"},
                       {"nfd.node.kubernetes.io/worker.version", "v0.16.4"}};
  const std::string cidr = "172.20." + std::to_string(std::hash<std::string>{}(name) % 256) + ".0/24";
  spec["podCIDR"] = cidr;
  spec["podCIDRs"] = json::array({cidr});
  spec["providerID"] = "cn-beijing.i-" + hex_id(name, "ecs").substr(0, 20);
  // The kubelet reports up to 50 images (nodeStatusMaxImages), biggest first.
  json images = json::array();
  for (int i = 0; i < (gpu ? 24 : 12); ++i) {
    const std::string repo = "registry.cn-beijing.aliyuncs.com/ai-samples/image-" + std::to_string(i);
    images.push_back({{"names", json::array({repo + "@sha256:" + digest(repo, "image"), repo + ":v" + std::to_string(i)})},
                      {"sizeBytes", 9000000000LL - 300000000LL * i}});
  }
  status["images"] = images;
  status["runtimeHandlers"] = json::array(
      {{{"name", ""}, {"features", {{"recursiveReadOnlyMounts", true}, {"userNamespaces", false}}}},
       {{"name", "runc"}, {"features", {{"recursiveReadOnlyMounts", true}, {"userNamespaces", false}}}}});
  md["managedFields"] = json::array(
      {managed("kubelet", "v1", since, fields_v1({{"metadata", {{"labels", labels}}}})),
       managed("kube-controller-manager", "v1", since,
               fields_v1({{"metadata", {{"annotations", {{"node.alpha.kubernetes.io/ttl", "0"}}}}},
                          {"spec", {{"podCIDR", cidr}, {"podCIDRs", spec["podCIDRs"]}}}})),
       managed("nfd-master", "v1", since, fields_v1({{"metadata", {{"annotations", md["annotations"]}}}})),
       managed("kubelet", "v1", since, fields_v1({{"status", status}}), "status")});
}

}  // namespace kubesim
