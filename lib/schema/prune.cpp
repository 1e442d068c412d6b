// Pruning: what the API server keeps of an object under a structural schema.
#include "schema/schema.h"
#include "schema/schema_node.h"

namespace trainctl::schema {

namespace {

bool dropped_null(const nlohmann::json& v, const SchemaNode* n) {
  return v.is_null() && !Effective(n).nullable;
}

nlohmann::json prune_value(const nlohmann::json& v, const SchemaNode* n, bool root);

nlohmann::json prune_object(const nlohmann::json& v, const Effective& e, bool root) {
  const bool resource = root || e.embedded;
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [key, val] : v.items()) {
    const SchemaNode* prop = e.property(key);
    if (resource && key == "metadata" && (root || prop == nullptr)) {
      if (!val.is_null()) out[key] = prune_value(val, object_meta_schema(), false);
    } else if (prop != nullptr) {
      if (!dropped_null(val, prop)) out[key] = prune_value(val, prop, false);
    } else if (resource && (key == "apiVersion" || key == "kind")) {
      out[key] = val;
    } else if (e.additional != nullptr) {
      if (!dropped_null(val, e.additional)) out[key] = prune_value(val, e.additional, false);
    } else if (e.keeps_unknown()) {
      out[key] = val;
    }
  }
  return out;
}

nlohmann::json prune_value(const nlohmann::json& v, const SchemaNode* n, bool root) {
  if (v.is_object()) return prune_object(v, Effective(n), root);
  if (v.is_array()) {
    Effective e(n);
    if (e.items == nullptr) return v;
    nlohmann::json out = nlohmann::json::array();
    for (const auto& item : v) out.push_back(prune_value(item, e.items, false));
    return out;
  }
  return v;
}

}  // namespace

Schema::Schema(std::string api_version, std::string kind, bool crd, const SchemaNode* root)
    : m_api_version(std::move(api_version)), m_kind(std::move(kind)), m_crd(crd), m_root(root) {}

nlohmann::json Schema::prune(const nlohmann::json& obj) const { return prune_value(obj, m_root, true); }

}  // namespace trainctl::schema
