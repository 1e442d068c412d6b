// Internal: a compiled OpenAPI v3 / structural schema node and the compiler that builds
// nodes from JSON. Nodes live in a NodeArena and are immutable once compiled.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace trainctl::schema {

struct SchemaNode {
  std::string type;                                                   // "" when the node declares none
  std::string format;                                                 // "int32", "int-or-string", ...
  std::vector<std::pair<std::string, const SchemaNode*>> properties;  // sorted by name
  const SchemaNode* additional = nullptr;                             // additionalProperties as a schema
  std::optional<bool> additional_bool;                                // additionalProperties: true / false
  const SchemaNode* items = nullptr;
  std::vector<std::string> required;
  std::vector<nlohmann::json> enum_values;
  std::optional<nlohmann::json> default_value;  // CRD schemas only
  bool has_enum = false;
  bool nullable = false;
  bool int_or_string = false;
  bool preserve_unknown = false;
  bool embedded = false;
  bool date_time = false;                 // CRD `format: date-time`, checked like strfmt's DateTime
  std::vector<const SchemaNode*> all_of;  // allOf members and the $ref target
  std::vector<const SchemaNode*> any_of;
  std::vector<const SchemaNode*> one_of;
  std::optional<double> minimum, maximum;
  bool exclusive_minimum = false, exclusive_maximum = false;
  std::optional<std::int64_t> min_length, max_length, min_items, max_items;
  std::string pattern;
  std::shared_ptr<const std::regex> pattern_re;  // null when the pattern does not compile
  std::string list_type;                         // x-kubernetes-list-type
  std::vector<std::string> list_map_keys;        // x-kubernetes-list-map-keys

  const SchemaNode* property(const std::string& name) const;
};

// The node and every node it includes through allOf / $ref, node first.
std::vector<const SchemaNode*> closure_of(const SchemaNode* node);

// What a value must satisfy, gathered over closure_of(node).
struct Effective {
  std::vector<const SchemaNode*> nodes;
  std::string type;
  bool nullable = false;
  bool int_or_string = false;
  bool preserve_unknown = false;
  bool embedded = false;
  const SchemaNode* additional = nullptr;
  bool additional_true = false;
  const SchemaNode* items = nullptr;

  explicit Effective(const SchemaNode* node);
  const SchemaNode* property(const std::string& name) const;
  // Fields not declared are kept (preserve-unknown-fields or additionalProperties: true).
  bool keeps_unknown() const { return preserve_unknown || additional_true; }
};

class NodeArena {
 public:
  SchemaNode* make() { return &m_nodes.emplace_back(); }

 private:
  std::deque<SchemaNode> m_nodes;
};

class RegexCache {
 public:
  std::shared_ptr<const std::regex> get(const std::string& pattern);

 private:
  std::unordered_map<std::string, std::shared_ptr<const std::regex>> m_cache;
};

// Compiles schema JSON into nodes. `components` (may be null) is the components.schemas
// object $refs of the form '#/components/schemas/NAME' resolve in; compiled components are
// memoized in `memo` so recursive types terminate. Throws ConfigError naming `origin`.
class NodeCompiler {
 public:
  NodeCompiler(NodeArena& arena, RegexCache& regexes, const nlohmann::json* components,
               std::unordered_map<std::string, const SchemaNode*>& memo, std::string origin, bool structural);
  const SchemaNode* compile(const nlohmann::json& j);
  const SchemaNode* component(const std::string& name);

 private:
  void fill(SchemaNode& n, const nlohmann::json& j);
  const SchemaNode* resolve_ref(const std::string& ref);

  NodeArena& m_arena;
  RegexCache& m_regexes;
  const nlohmann::json* m_components;
  std::unordered_map<std::string, const SchemaNode*>& m_memo;
  std::string m_origin;
  bool m_structural;  // CRD rules: an object with no properties drops every field
};

// The built-in schema of metav1.ObjectMeta (what the server keeps of `metadata`).
const SchemaNode* object_meta_schema();

}  // namespace trainctl::schema
