// /openapi/v3: a root listing one document per group-version, and per group-version a
// minimal OpenAPI 3 document whose PATCH operations carry x-kubernetes-group-version-kind
// and the fieldValidation query parameter. kubectl reads exactly this to decide that the
// server validates fields itself (so `kubectl apply` sends ?fieldValidation=Strict instead
// of downloading /openapi/v2 for client-side validation). /openapi/v2 stays 404.
#include "kubesim/rest.h"

#include <map>
#include <set>

namespace kubesim {

namespace {

std::string gv_path(const ResourceType& rt) {
  return rt.group.empty() ? "api/" + rt.version : "apis/" + rt.group + "/" + rt.version;
}

json query_param(const std::string& name) {
  return {{"name", name}, {"in", "query"}, {"schema", {{"type", "string"}}}, {"uniqueItems", true}};
}

json operation(const ResourceType& rt, const std::string& action, bool with_validation) {
  json params = json::array({query_param("dryRun"), query_param("fieldManager")});
  if (with_validation) params.push_back(query_param("fieldValidation"));
  return {{"operationId", action + rt.kind},
          {"x-kubernetes-action", action},
          {"x-kubernetes-group-version-kind", {{"group", rt.group}, {"version", rt.version}, {"kind", rt.kind}}},
          {"parameters", params},
          {"responses", {{"200", {{"description", "OK"}}}}}};
}

json gv_document(const std::vector<const ResourceType*>& types) {
  json paths = json::object();
  for (const auto* rt : types) {
    std::string base = "/" + gv_path(*rt) + (rt->namespaced ? "/namespaces/{namespace}/" : "/") + rt->plural;
    paths[base] = {{"post", operation(*rt, "post", true)}};
    paths[base + "/{name}"] = {{"get", operation(*rt, "get", false)},
                               {"put", operation(*rt, "put", true)},
                               {"patch", operation(*rt, "patch", true)},
                               {"delete", operation(*rt, "delete", false)}};
  }
  return {{"openapi", "3.0.0"},
          {"info", {{"title", "Kubernetes"}, {"version", "v1.31.0"}}},
          {"paths", paths},
          {"components", {{"schemas", json::object()}}}};
}

}  // namespace

bool Api::handle_openapi(const httplib::Request& http, httplib::Response& res) {
  const std::string& path = http.path;
  if (path.rfind("/openapi/", 0) != 0) return false;
  std::map<std::string, std::vector<const ResourceType*>> by_gv;
  for (const auto* rt : m_store.types()) by_gv[gv_path(*rt)].push_back(rt);
  if (path == "/openapi/v2") {
    // Older kubectl (apply in 1.27-1.2x) insists on reading the v2 document, as protobuf
    // (gnostic openapi_v2.Document). A document with only swagger and info fields makes it
    // fall back to its built-in knowledge of the types.
    std::string doc;
    auto field = [&](std::string& out, int num, const std::string& value) {
      out += static_cast<char>((num << 3) | 2);
      out += static_cast<char>(value.size());
      out += value;
    };
    std::string info;
    field(info, 1, "Kubernetes");
    field(info, 2, "v1.31.0");
    field(doc, 1, "2.0");
    field(doc, 2, info);
    res.status = 200;
    res.set_content(doc, "application/com.github.proto-openapi.spec.v2.v1.0+protobuf");
    return true;
  }
  if (path == "/openapi/v3" || path == "/openapi/v3/") {
    json paths = json::object();
    for (const auto& [gv, types] : by_gv) {
      std::string hash = std::to_string(std::hash<std::string>{}(gv_document(types).dump()));
      paths[gv] = {{"serverRelativeURL", "/openapi/v3/" + gv + "?hash=" + hash}};
    }
    send_json(res, 200, json{{"paths", paths}}.dump());
    return true;
  }
  if (path.rfind("/openapi/v3/", 0) == 0) {
    auto it = by_gv.find(path.substr(12));
    if (it != by_gv.end()) {
      send_json(res, 200, gv_document(it->second).dump());
      return true;
    }
  }
  send_status(res, StatusError(404, "NotFound", "the server could not find the requested resource", json::object()));
  return true;
}

}  // namespace kubesim
