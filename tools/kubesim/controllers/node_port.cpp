// NodePort allocation for Services, as kube-apiserver does on create.
#include <set>

#include "kubesim/controllers/simulation.h"
#include "kubesim/store.h"

namespace kubesim {

namespace {

StatusError invalid_port(const std::string& name, const std::string& field, int64_t port,
                         const std::string& why) {
  const std::string detail = "Invalid value: " + std::to_string(port) + ": " + why;
  nlohmann::json cause = {{"reason", "FieldValueInvalid"}, {"message", detail}, {"field", field}};
  nlohmann::json details = {{"name", name}, {"kind", "Service"}};
  details["causes"] = nlohmann::json::array({cause});
  return StatusError(422, "Invalid", "Service \"" + name + "\" is invalid: " + field + ": " + detail,
                     details);
}

}  // namespace

void allocate_node_port(const Store& store, nlohmann::json& service) {
  const std::string type = service.value("spec", nlohmann::json::object()).value("type", "ClusterIP");
  if (type != "NodePort" && type != "LoadBalancer") return;
  if (!service["spec"].contains("ports") || !service["spec"]["ports"].is_array()) return;
  const ResourceType* services = store.find("", "v1", "services");
  std::set<int64_t> used;
  if (services) {
    for (const auto& s : store.list(*services, "").items)
      for (const auto& p : s->value("spec", nlohmann::json::object()).value("ports", nlohmann::json::array()))
        if (p.contains("nodePort") && p["nodePort"].is_number_integer())
          used.insert(p["nodePort"].get<int64_t>());
  }
  const std::string name = service.value("metadata", nlohmann::json::object()).value("name", "");
  for (size_t i = 0; i < service["spec"]["ports"].size(); ++i) {
    auto& p = service["spec"]["ports"][i];
    if (p.contains("nodePort") && p["nodePort"].is_number_integer() && p["nodePort"].get<int64_t>() != 0) {
      const int64_t port = p["nodePort"].get<int64_t>();
      const std::string field = "spec.ports[" + std::to_string(i) + "].nodePort";
      if (port < 30000 || port > 32767)
        throw invalid_port(
            name, field, port,
            "provided port is not in the valid range. The range of valid ports is 30000-32767");
      if (used.count(port)) throw invalid_port(name, field, port, "provided port is already allocated");
      used.insert(port);
      continue;
    }
    // Deterministic first pick from the service name, then the next free port.
    int64_t port = 30000 + static_cast<int64_t>(std::hash<std::string>()(name + std::to_string(i)) % 2768);
    for (int tries = 0; tries < 2768 && used.count(port); ++tries) port = port == 32767 ? 30000 : port + 1;
    if (used.count(port))
      throw StatusError(500, "InternalError",
                        "Internal error occurred: failed to allocate a nodePort: range is full");
    p["nodePort"] = port;
    used.insert(port);
  }
}

}  // namespace kubesim
