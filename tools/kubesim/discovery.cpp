// Discovery: /version, /api, /api/v1, /apis, /apis/GROUP, /apis/GROUP/VERSION. Served as
// plain application/json, so clients asking for aggregated discovery (apidiscovery.k8s.io/v2)
// fall back to these legacy documents, as they do with older API servers.
#include "kubesim/kueue_visibility.h"
#include "kubesim/rest.h"

#include <map>
#include <regex>

namespace kubesim {

namespace {

// k8s.io/apimachinery pkg/version/helpers.go CompareKubeAwareVersionStrings: GA before beta
// before alpha, then the higher major, then the higher minor; versions that are not of the
// form vN[alpha|betaM] come after those that are, in reverse lexical order. > 0 when a comes
// first.
int compare_kube_aware(const std::string& a, const std::string& b) {
  if (a == b) return 0;
  static const std::regex re("^v([0-9]+)(?:(alpha|beta)([0-9]+))?$");
  struct Parsed {
    bool ok = false;
    long major = 0, type = 0, minor = 0;  // type: 0 alpha, 1 beta, 2 GA
  };
  auto parse = [](const std::string& v) {
    Parsed p;
    std::smatch m;
    if (!std::regex_match(v, m, re)) return p;
    try {
      p.major = std::stol(m[1].str());
      p.type = m[2].str() == "alpha" ? 0 : m[2].str() == "beta" ? 1 : 2;
      if (p.type != 2) p.minor = std::stol(m[3].str());
    } catch (...) {
      return Parsed{};
    }
    p.ok = true;
    return p;
  };
  const Parsed pa = parse(a), pb = parse(b);
  if (!pa.ok && !pb.ok) return b.compare(a);
  if (!pa.ok) return -1;
  if (!pb.ok) return 1;
  if (pa.type != pb.type) return static_cast<int>(pa.type - pb.type);
  if (pa.major != pb.major) return pa.major > pb.major ? 1 : -1;
  if (pa.minor != pb.minor) return pa.minor > pb.minor ? 1 : -1;
  return 0;
}

json resource_entry(const ResourceType& rt) {
  json verbs = rt.verbs.empty()
                   ? json{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}
                   : json(rt.verbs);
  json r = {{"name", rt.plural}, {"singularName", rt.singular}, {"namespaced", rt.namespaced},
            {"kind", rt.kind}, {"verbs", verbs}};
  if (rt.group.empty() && rt.kind == "Event") r["verbs"] = verbs;
  if (!rt.short_names.empty()) r["shortNames"] = rt.short_names;
  if (!rt.categories.empty()) r["categories"] = rt.categories;
  return r;
}

// group -> versions, preferred first: kube-apiserver sorts a group's versions by
// CompareKubeAwareVersionStrings and prefers the first (apiextensions-apiserver
// pkg/apiserver/customresource_discovery_controller.go sortGroupDiscoveryByKubeAwareVersion;
// the aggregator orders the APIServices of CRD groups, all of the same VersionPriority, the
// same way for /apis).
std::map<std::string, std::vector<std::string>> groups_of(const std::vector<const ResourceType*>& types) {
  std::map<std::string, std::vector<std::string>> g;
  for (const auto* rt : types) {
    auto& v = g[rt->group];
    if (std::find(v.begin(), v.end(), rt->version) == v.end()) v.push_back(rt->version);
  }
  for (auto& [group, versions] : g)
    std::stable_sort(versions.begin(), versions.end(),
                     [](const std::string& a, const std::string& b) { return compare_kube_aware(a, b) > 0; });
  return g;
}

json group_entry(const std::string& name, const std::vector<std::string>& versions) {
  json vs = json::array();
  for (const auto& v : versions) vs.push_back({{"groupVersion", name + "/" + v}, {"version", v}});
  return {{"name", name}, {"versions", vs}, {"preferredVersion", vs[0]}};
}

}  // namespace

bool Api::handle_discovery(const httplib::Request& http, httplib::Response& res) {
  const std::string& path = http.path;
  std::string p = path.size() > 1 && path.back() == '/' ? path.substr(0, path.size() - 1) : path;
  if (p == "/version") {
    send_json(res, 200, (m_version_info.is_null() ? KubeVersion{}.info() : m_version_info).dump());
    return true;
  }
  if (p == "/api") {
    send_json(res, 200,
              json{{"kind", "APIVersions"}, {"versions", {"v1"}},
                   {"serverAddressByClientCIDRs",
                    {{{"clientCIDR", "0.0.0.0/0"}, {"serverAddress", http.local_addr + ":" + std::to_string(http.local_port)}}}}}
                  .dump());
    return true;
  }
  auto groups = groups_of(m_store.types());
  if (p == "/apis") {
    // Built-in groups first, then custom resource groups, as kube-apiserver orders them;
    // kubectl resolves an ambiguous "jobs" to the first group that has it (batch).
    json list = json::array();
    for (int pass = 0; pass < 2; ++pass)
      for (const auto& [g, vs] : groups) {
        bool builtin = g.find('.') == std::string::npos || g.ends_with(".k8s.io");
        if (!g.empty() && builtin == (pass == 0)) list.push_back(group_entry(g, vs));
      }
    // Kueue's aggregated visibility API, registered by its APIService with Kueue.
    if (groups.count("kueue.x-k8s.io") && !m_kueue.visibility_versions.empty())
      list.push_back(kueue_visibility_group(m_kueue));
    send_json(res, 200, json{{"kind", "APIGroupList"}, {"apiVersion", "v1"}, {"groups", list}}.dump());
    return true;
  }
  if (p.rfind("/apis/", 0) == 0 && p.find('/', 6) == std::string::npos) {
    std::string g = p.substr(6);
    auto it = groups.find(g);
    if (it == groups.end() || g.empty()) return false;
    json e = group_entry(g, it->second);
    e["kind"] = "APIGroup";
    e["apiVersion"] = "v1";
    send_json(res, 200, e.dump());
    return true;
  }
  return false;
}

void Api::resource_list(ApiRequest& req) {
  const ApiPath& p = req.path;
  json resources = json::array();
  for (const auto* rt : m_store.types()) {
    if (rt->group != p.group || rt->version != p.version) continue;
    resources.push_back(resource_entry(*rt));
    if (rt->status_subresource)
      resources.push_back({{"name", rt->plural + "/status"}, {"singularName", ""}, {"namespaced", rt->namespaced},
                           {"kind", rt->kind}, {"verbs", {"get", "patch", "update"}}});
    if (rt->group.empty() && rt->kind == "Pod")
      resources.push_back({{"name", "pods/log"}, {"singularName", ""}, {"namespaced", true}, {"kind", "Pod"},
                           {"verbs", {"get"}}});
  }
  if (resources.empty())
    throw StatusError(404, "NotFound", "the server could not find the requested resource", json::object());
  std::string gv = p.group.empty() ? p.version : p.group + "/" + p.version;
  send_json(req.res, 200,
            json{{"kind", "APIResourceList"}, {"apiVersion", "v1"}, {"groupVersion", gv}, {"resources", resources}}.dump());
}

}  // namespace kubesim
