// Reading CustomResourceDefinitions (apiextensions.k8s.io/v1).
#include "schema/crd_loader.h"

#include <utility>

#include "core/errors.h"
#include "core/file.h"
#include "core/text.h"
#include "yaml/read.h"

namespace trainctl::schema {

namespace {

std::string string_at(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::vector<std::string> strings_at(const nlohmann::json& j, const char* key) {
  std::vector<std::string> out;
  auto it = j.find(key);
  if (it == j.end() || !it->is_array()) return out;
  for (const auto& s : *it) {
    if (s.is_string()) out.push_back(s.get<std::string>());
  }
  return out;
}

LoadedCrd load_crd(const nlohmann::json& doc, const std::string& path, NodeArena& arena,
                   RegexCache& regexes) {
  if (!doc.contains("spec") || !doc["spec"].is_object()) {
    throw ConfigError(path + ": CustomResourceDefinition has no spec");
  }
  const nlohmann::json& spec = doc["spec"];
  LoadedCrd crd;
  CrdInfo& info = crd.info;
  if (doc.contains("metadata") && doc["metadata"].is_object()) {
    info.name = string_at(doc["metadata"], "name");
  }
  info.group = string_at(spec, "group");
  nlohmann::json names = spec.value("names", nlohmann::json::object());
  if (!names.is_object()) names = nlohmann::json::object();
  constexpr std::pair<std::string CrdInfo::*, const char*> kNames[] = {{&CrdInfo::kind, "kind"},
                                                                       {&CrdInfo::list_kind, "listKind"},
                                                                       {&CrdInfo::plural, "plural"},
                                                                       {&CrdInfo::singular, "singular"}};
  for (const auto& [member, key] : kNames) info.*member = string_at(names, key);
  info.short_names = strings_at(names, "shortNames");
  info.categories = strings_at(names, "categories");
  info.namespaced = string_at(spec, "scope") != "Cluster";
  if (info.group.empty() || info.kind.empty() || info.plural.empty()) {
    throw ConfigError(path + ": CustomResourceDefinition " + info.name +
                      " lacks spec.group, spec.names.kind or spec.names.plural");
  }
  if (info.singular.empty()) info.singular = ascii_lower(info.kind);
  if (info.list_kind.empty()) info.list_kind = info.kind + "List";
  auto versions = spec.find("versions");
  if (versions == spec.end() || !versions->is_array() || versions->empty()) {
    throw ConfigError(path + ": CustomResourceDefinition " + info.name + " has no spec.versions");
  }
  std::unordered_map<std::string, const SchemaNode*> memo;
  for (const auto& v : *versions) {
    CrdVersion version;
    version.name = string_at(v, "name");
    version.served = v.value("served", false);
    version.storage = v.value("storage", false);
    if (auto sub = v.find("subresources"); sub != v.end() && sub->is_object()) {
      version.status_subresource = sub->contains("status");
      version.scale_subresource = sub->contains("scale");
    }
    info.versions.push_back(version);
    const nlohmann::json* schema = nullptr;
    if (auto s = v.find("schema"); s != v.end() && s->is_object()) {
      if (auto o = s->find("openAPIV3Schema"); o != s->end()) schema = &*o;
    }
    if (!version.served) continue;
    NodeCompiler compiler(arena, regexes, nullptr, memo, path + " (" + info.name + " " + version.name + ")",
                          true);
    // A version without a schema accepts anything (as apiextensions v1beta1 did).
    const SchemaNode* root = schema != nullptr
                                 ? compiler.compile(*schema)
                                 : compiler.compile(nlohmann::json{
                                       {"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}});
    crd.version_schemas.emplace_back(version.name, root);
  }
  return crd;
}

}  // namespace

std::vector<LoadedCrd> load_crd_file(const std::string& path, NodeArena& arena, RegexCache& regexes) {
  std::vector<LoadedCrd> out;
  for (const auto& doc : yaml::parse_all(read_file(path), path)) {
    if (!doc.is_object()) throw ConfigError(path + ": a document is not a mapping");
    if (doc.value("kind", "") != "CustomResourceDefinition") continue;
    try {
      out.push_back(load_crd(doc, path, arena, regexes));
    } catch (const nlohmann::json::exception& e) {
      throw ConfigError(path + ": malformed CustomResourceDefinition: " + e.what());
    }
  }
  return out;
}

}  // namespace trainctl::schema
