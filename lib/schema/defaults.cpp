// Structural defaulting of custom resources: `default` values filled into absent fields.
#include "schema/schema.h"
#include "schema/schema_node.h"

namespace trainctl::schema {

namespace {

void default_value(nlohmann::json& v, const SchemaNode* n, bool root);

void default_object(nlohmann::json& v, const Effective& e, bool root) {
  const bool resource = root || e.embedded;
  for (const SchemaNode* node : e.nodes) {
    for (const auto& [name, prop] : node->properties) {
      if (resource && (name == "metadata" || name == "apiVersion" || name == "kind")) continue;
      const Effective pe(prop);
      const SchemaNode* with_default = nullptr;
      for (const SchemaNode* candidate : pe.nodes) {
        if (candidate->default_value) {
          with_default = candidate;
          break;
        }
      }
      if (with_default == nullptr) continue;
      auto it = v.find(name);
      if (it == v.end() || (it->is_null() && !pe.nullable)) {
        v[name] = *with_default->default_value;
      }
    }
  }
  for (auto& [key, val] : v.items()) {
    if (resource && (key == "metadata" || key == "apiVersion" || key == "kind")) continue;
    if (const SchemaNode* prop = e.property(key)) {
      default_value(val, prop, false);
    } else if (e.additional != nullptr) {
      default_value(val, e.additional, false);
    }
  }
}

void default_value(nlohmann::json& v, const SchemaNode* n, bool root) {
  if (v.is_object()) {
    default_object(v, Effective(n), root);
  } else if (v.is_array()) {
    Effective e(n);
    if (e.items == nullptr) return;
    for (auto& item : v) default_value(item, e.items, false);
  }
}

}  // namespace

nlohmann::json Schema::apply_defaults(const nlohmann::json& obj) const {
  nlohmann::json out = obj;
  if (m_crd) default_value(out, m_root, true);
  return out;
}

}  // namespace trainctl::schema
