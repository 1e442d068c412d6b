// POST /kubesim/nodes/NAME/evict (node_evict.h).
#include "kubesim/node_evict.h"

namespace kubesim {

nlohmann::json evict_node_pods(Store& store, const std::string& node) {
  using nlohmann::json;
  const ResourceType* nodes = store.find("", "v1", "nodes");
  const ResourceType* pods = store.find("", "v1", "pods");
  if (!nodes || !pods || !store.get_shared(*nodes, "", node)) throw not_found(nodes ? *nodes : *pods, node);
  const auto bound = store.list(*pods, "", [&](const json& p) {
    return p.value("spec", json::object()).value("nodeName", "") == node &&
           !p.value("metadata", json::object()).contains("deletionTimestamp");
  });
  json evicted = json::array();
  for (const auto& p : bound.items) {
    const auto& md = (*p)["metadata"];
    try {
      store.remove(*pods, md.value("namespace", ""), md.value("name", ""));
      evicted.push_back(md.value("namespace", "") + "/" + md.value("name", ""));
    } catch (const StatusError&) {
      // deleted meanwhile
    }
  }
  return {{"node", node}, {"evicted", evicted}};
}

}  // namespace kubesim
