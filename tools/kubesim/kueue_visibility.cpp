// Kueue's visibility API (an aggregated API server in a real cluster; kueue v0.19.2
// pkg/visibility/storage, both versions installed by pkg/visibility/server.go, each
// registered by an APIService; KueueConfig::visibility_versions may register fewer, as a
// release that dropped one would): GET /apis/visibility.kueue.x-k8s.io/{v1beta1,v1beta2}/
// clusterqueues/CQ/pendingworkloads and .../namespaces/NS/localqueues/LQ/pendingworkloads,
// answering a PendingWorkloadsSummary (apis/visibility/v1beta1/types.go) with each pending
// Workload's positionInClusterQueue and positionInLocalQueue (from 0); `offset` and `limit`
// (default 1000) as PendingWorkloadOptions. Discovery lists the group when Kueue is served.
#include "kubesim/kueue_visibility.h"

#include <algorithm>
#include <map>

#include "kubesim/kueue_model.h"
#include "kubesim/rest.h"

namespace kubesim {

namespace {

constexpr const char* kGroup = "visibility.kueue.x-k8s.io";

std::vector<std::string> segments(const std::string& p) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= p.size()) {
    size_t s = p.find('/', start);
    if (s == std::string::npos) s = p.size();
    if (s > start) out.push_back(p.substr(start, s - start));
    start = s + 1;
  }
  return out;
}

StatusError not_found_in(const std::string& resource, const std::string& name) {
  return StatusError(404, "NotFound", resource + "." + kGroup + " \"" + name + "\" not found",
                     {{"name", name}, {"group", kGroup}, {"kind", resource}});
}

int64_t param_int(const httplib::Request& req, const char* name, int64_t fallback) {
  if (!req.has_param(name)) return fallback;
  try {
    return std::stoll(req.get_param_value(name));
  } catch (...) {
    throw bad_request("invalid " + std::string(name) + " " + req.get_param_value(name));
  }
}

json pending_item(const json& wl, int64_t in_cq, int64_t in_lq) {
  const json& md = wl["metadata"];
  json owners = json::array();
  for (const auto& r : md.value("ownerReferences", json::array()))
    owners.push_back({{"apiVersion", r.value("apiVersion", "")},
                      {"kind", r.value("kind", "")},
                      {"name", r.value("name", "")},
                      {"uid", r.value("uid", "")}});
  return {{"metadata",
           {{"name", md.value("name", "")},
            {"namespace", md.value("namespace", "")},
            {"creationTimestamp", md.value("creationTimestamp", "")},
            {"ownerReferences", owners}}},
          {"priority", wl["spec"].value("priority", 0)},
          {"localQueueName", wl["spec"].value("queueName", "")},
          {"positionInClusterQueue", in_cq},
          {"positionInLocalQueue", in_lq}};
}

json resource_list(const std::string& version) {
  auto entry = [](const std::string& name, bool namespaced, const std::string& kind) {
    return json{{"name", name}, {"singularName", ""}, {"namespaced", namespaced}, {"kind", kind}, {"verbs", {"get"}}};
  };
  return {{"kind", "APIResourceList"},
          {"apiVersion", "v1"},
          {"groupVersion", std::string(kGroup) + "/" + version},
          {"resources",
           {entry("clusterqueues", false, "ClusterQueue"),
            entry("clusterqueues/pendingworkloads", false, "PendingWorkloadsSummary"),
            entry("localqueues", true, "LocalQueue"),
            entry("localqueues/pendingworkloads", true, "PendingWorkloadsSummary")}}};
}

}  // namespace

json kueue_visibility_group(const KueueConfig& config) {
  json vs = json::array();
  for (const auto& v : config.visibility_order())
    vs.push_back({{"groupVersion", std::string(kGroup) + "/" + v}, {"version", v}});
  return {{"name", kGroup}, {"versions", vs}, {"preferredVersion", vs.empty() ? json::object() : vs[0]}};
}

bool handle_kueue_visibility(const Store& store, const KueueConfig& config, const httplib::Request& req,
                             httplib::Response& res) {
  const auto segs = segments(req.path);
  if (segs.size() < 2 || segs[0] != "apis" || segs[1] != kGroup) return false;
  const KueueTypes t = KueueTypes::find(store);
  if (!t.served() || config.visibility_versions.empty()) return false;
  if (req.method != "GET") throw method_not_allowed();
  if (segs.size() == 2) {
    json g = kueue_visibility_group(config);
    g["kind"] = "APIGroup";
    g["apiVersion"] = "v1";
    send_json(res, 200, g.dump());
    return true;
  }
  const std::string version = segs[2];
  if (!config.visibility_versions.count(version)) return false;
  if (segs.size() == 3) {
    send_json(res, 200, resource_list(version).dump());
    return true;
  }
  std::string ns, lq, cq;
  if (segs.size() == 6 && segs[3] == "clusterqueues" && segs[5] == "pendingworkloads") {
    cq = segs[4];
    if (!store.get_shared(*t.cluster_queues, "", cq)) throw not_found_in("clusterqueues", cq);
  } else if (segs.size() == 8 && segs[3] == "namespaces" && segs[5] == "localqueues" && segs[7] == "pendingworkloads") {
    ns = segs[4];
    lq = segs[6];
    auto q = store.get_shared(*t.local_queues, ns, lq);
    if (!q) throw not_found_in("localqueues", lq);
    cq = (*q)["spec"].value("clusterQueue", "");
  } else {
    throw StatusError(404, "NotFound", "the server could not find the requested resource", json::object());
  }
  // storage/utils.go boundedLimitOffset: limit in [0, 4000], offset >= 0.
  const int64_t limit = std::clamp<int64_t>(param_int(req, "limit", 1000), 0, 4000);
  const int64_t offset = std::max<int64_t>(param_int(req, "offset", 0), 0);
  json items = json::array();
  std::map<std::string, int64_t> in_lq;  // ns/lq -> workloads seen
  int64_t index = 0, skipped = 0;
  for (const auto& w : kueue_pending_workloads(store, t, cq)) {
    const std::string key = (*w)["metadata"].value("namespace", "") + "/" + (*w)["spec"].value("queueName", "");
    const int64_t pos_lq = in_lq[key]++;
    if (lq.empty()) {  // pending_workloads_cq.go
      if (index >= offset && index < offset + limit) items.push_back(pending_item(*w, index, pos_lq));
    } else if (key == ns + "/" + lq && static_cast<int64_t>(items.size()) < limit) {  // pending_workloads_lq.go
      if (skipped < offset)
        ++skipped;
      else
        items.push_back(pending_item(*w, index, static_cast<int64_t>(items.size()) + offset));
    }
    ++index;
  }
  send_json(res, 200,
            json{{"kind", "PendingWorkloadsSummary"},
                 {"apiVersion", std::string(kGroup) + "/" + version},
                 {"metadata", json::object()},
                 {"items", items}}
                .dump());
  return true;
}

}  // namespace kubesim
