// Compiling schema JSON into SchemaNode trees, and the allOf/$ref closure helpers.
#include <algorithm>

#include "core/errors.h"
#include "schema/schema_node.h"

namespace trainctl::schema {

namespace {

constexpr int kMaxAllOfDepth = 32;
const std::string kRefPrefix = "#/components/schemas/";

void collect_closure(const SchemaNode* node, std::vector<const SchemaNode*>& out, int depth) {
  if (node == nullptr || depth > kMaxAllOfDepth) return;
  out.push_back(node);
  for (const SchemaNode* member : node->all_of) collect_closure(member, out, depth + 1);
}

std::optional<std::int64_t> int_field(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  return it->get<std::int64_t>();
}

std::optional<double> number_field(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

bool bool_field(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_boolean() && it->get<bool>();
}

}  // namespace

const SchemaNode* SchemaNode::property(const std::string& name) const {
  auto it = std::lower_bound(properties.begin(), properties.end(), name,
                             [](const auto& p, const std::string& n) { return p.first < n; });
  if (it != properties.end() && it->first == name) return it->second;
  return nullptr;
}

std::vector<const SchemaNode*> closure_of(const SchemaNode* node) {
  std::vector<const SchemaNode*> out;
  collect_closure(node, out, 0);
  return out;
}

Effective::Effective(const SchemaNode* node) : nodes(closure_of(node)) {
  for (const SchemaNode* n : nodes) {
    if (type.empty()) type = n->type;
    nullable = nullable || n->nullable;
    int_or_string = int_or_string || n->int_or_string;
    preserve_unknown = preserve_unknown || n->preserve_unknown;
    embedded = embedded || n->embedded;
    if (additional == nullptr) additional = n->additional;
    additional_true = additional_true || (n->additional_bool && *n->additional_bool);
    if (items == nullptr) items = n->items;
  }
}

const SchemaNode* Effective::property(const std::string& name) const {
  for (const SchemaNode* n : nodes) {
    if (const SchemaNode* p = n->property(name)) return p;
  }
  return nullptr;
}

std::shared_ptr<const std::regex> RegexCache::get(const std::string& pattern) {
  auto it = m_cache.find(pattern);
  if (it != m_cache.end()) return it->second;
  std::shared_ptr<const std::regex> re;
  try {
    re = std::make_shared<const std::regex>(pattern, std::regex::ECMAScript | std::regex::optimize);
  } catch (const std::regex_error&) {
    re = nullptr;  // RE2 syntax ECMAScript lacks: the pattern is not enforced
  }
  m_cache.emplace(pattern, re);
  return re;
}

NodeCompiler::NodeCompiler(NodeArena& arena, RegexCache& regexes, const nlohmann::json* components,
                           std::unordered_map<std::string, const SchemaNode*>& memo, std::string origin,
                           bool structural)
    : m_arena(arena),
      m_regexes(regexes),
      m_components(components),
      m_memo(memo),
      m_origin(std::move(origin)),
      m_structural(structural) {}

const SchemaNode* NodeCompiler::compile(const nlohmann::json& j) {
  SchemaNode* n = m_arena.make();
  fill(*n, j);
  return n;
}

const SchemaNode* NodeCompiler::component(const std::string& name) {
  auto it = m_memo.find(name);
  if (it != m_memo.end()) return it->second;
  if (m_components == nullptr || !m_components->contains(name)) {
    throw ConfigError(m_origin + ": $ref to unknown schema \"" + name + "\"");
  }
  SchemaNode* n = m_arena.make();
  m_memo.emplace(name, n);  // before filling: recursive types find the node
  fill(*n, m_components->at(name));
  return n;
}

const SchemaNode* NodeCompiler::resolve_ref(const std::string& ref) {
  if (ref.rfind(kRefPrefix, 0) != 0) {
    throw ConfigError(m_origin + ": unsupported $ref \"" + ref + "\"");
  }
  return component(ref.substr(kRefPrefix.size()));
}

void NodeCompiler::fill(SchemaNode& n, const nlohmann::json& j) {
  if (!j.is_object()) {
    throw ConfigError(m_origin + ": a schema must be an object, got " + j.dump().substr(0, 80));
  }
  if (auto it = j.find("type"); it != j.end() && it->is_string()) n.type = it->get<std::string>();
  if (auto it = j.find("format"); it != j.end() && it->is_string()) {
    n.format = it->get<std::string>();
  }
  if (auto it = j.find("properties"); it != j.end() && it->is_object()) {
    for (const auto& [name, sub] : it->items()) n.properties.emplace_back(name, compile(sub));
    std::sort(n.properties.begin(), n.properties.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
  }
  if (auto it = j.find("additionalProperties"); it != j.end()) {
    if (it->is_boolean()) {
      n.additional_bool = it->get<bool>();
    } else if (it->is_object()) {
      n.additional = compile(*it);
    }
  }
  if (auto it = j.find("items"); it != j.end() && it->is_object()) n.items = compile(*it);
  if (auto it = j.find("required"); it != j.end() && it->is_array()) {
    for (const auto& r : *it) {
      if (r.is_string()) n.required.push_back(r.get<std::string>());
    }
  }
  if (auto it = j.find("enum"); it != j.end() && it->is_array()) {
    n.has_enum = true;
    n.enum_values.assign(it->begin(), it->end());
  }
  // Built-in documents carry Go zero values as defaults; the server does not apply them.
  if (auto it = j.find("default"); m_structural && it != j.end()) n.default_value = *it;
  n.nullable = bool_field(j, "nullable");
  n.date_time = m_structural && n.format == "date-time";
  n.int_or_string = bool_field(j, "x-kubernetes-int-or-string") || n.format == "int-or-string";
  n.preserve_unknown = bool_field(j, "x-kubernetes-preserve-unknown-fields");
  n.embedded = bool_field(j, "x-kubernetes-embedded-resource");
  if (auto it = j.find("$ref"); it != j.end() && it->is_string()) {
    n.all_of.push_back(resolve_ref(it->get<std::string>()));
  }
  auto compile_list = [&](const char* key, std::vector<const SchemaNode*>& out) {
    if (auto it = j.find(key); it != j.end() && it->is_array()) {
      for (const auto& sub : *it) out.push_back(compile(sub));
    }
  };
  compile_list("allOf", n.all_of);
  compile_list("anyOf", n.any_of);
  compile_list("oneOf", n.one_of);
  n.minimum = number_field(j, "minimum");
  n.maximum = number_field(j, "maximum");
  n.exclusive_minimum = bool_field(j, "exclusiveMinimum");
  n.exclusive_maximum = bool_field(j, "exclusiveMaximum");
  n.min_length = int_field(j, "minLength");
  n.max_length = int_field(j, "maxLength");
  n.min_items = int_field(j, "minItems");
  n.max_items = int_field(j, "maxItems");
  if (auto it = j.find("pattern"); it != j.end() && it->is_string()) {
    n.pattern = it->get<std::string>();
    n.pattern_re = m_regexes.get(n.pattern);
  }
  if (auto it = j.find("x-kubernetes-list-type"); it != j.end() && it->is_string()) {
    n.list_type = it->get<std::string>();
  }
  if (auto it = j.find("x-kubernetes-list-map-keys"); it != j.end() && it->is_array()) {
    for (const auto& k : *it) {
      if (k.is_string()) n.list_map_keys.push_back(k.get<std::string>());
    }
  }
  // Built-in types: an object declared without fields is opaque JSON (RawExtension,
  // FieldsV1), kept as is. In a CRD's structural schema the same object keeps nothing.
  if (!m_structural && n.type == "object" && n.properties.empty() && n.additional == nullptr &&
      !n.additional_bool) {
    n.preserve_unknown = true;
  }
}

}  // namespace trainctl::schema
