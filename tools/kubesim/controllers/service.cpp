#include "kubesim/controllers/service.h"

namespace kubesim {

void ServiceController::reconcile(const std::string& ns, const std::string& name) {
  auto svc = m_ctx.store.get_shared(*m_ctx.services, ns, name);
  if (!svc || !svc->contains("spec")) return;
  const json& spec = (*svc)["spec"];
  bool needs_port = false;
  const std::string type = spec.value("type", "ClusterIP");
  if ((type == "NodePort" || type == "LoadBalancer") && spec.contains("ports"))
    for (const auto& p : spec["ports"])
      if (!p.contains("nodePort") || p["nodePort"] == 0) needs_port = true;
  const bool needs_ip = !spec.contains("clusterIP") && type != "ExternalName";
  if (!needs_port && !needs_ip) return;
  json copy = *svc;
  if (needs_port) allocate_node_port(m_ctx.store, copy);
  const uint32_t n = m_next_ip++;
  const std::string ip = "10.96." + std::to_string((n / 250) % 256) + "." + std::to_string(n % 250 + 1);
  m_ctx.patch(*m_ctx.services, ns, name, [&](json& obj) {
    if (needs_port) obj["spec"]["ports"] = copy["spec"]["ports"];
    if (needs_ip && !obj["spec"].contains("clusterIP")) {
      obj["spec"]["clusterIP"] = ip;
      obj["spec"]["clusterIPs"] = json::array({ip});
    }
  });
}

}  // namespace kubesim
