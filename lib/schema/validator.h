// Internal: the walk that checks a JSON value against compiled schema nodes and reports
// causes in kube-apiserver wording.
#pragma once

#include <string>

#include "schema/schema.h"
#include "schema/schema_node.h"

namespace trainctl::schema {

class Validator {
 public:
  // report_unknown=false checks values only (used for anyOf/oneOf branches).
  Validator(Mode mode, ValidationResult& result, bool report_unknown = true, std::string path = {});

  // A whole object: apiVersion/kind must be strings, metadata is ObjectMeta.
  void check_resource(const nlohmann::json& obj, const SchemaNode* root, const std::string& kind);
  void check(const nlohmann::json& v, const SchemaNode* n);

 private:
  void check_keywords(const nlohmann::json& v, const SchemaNode& n);
  void check_combinators(const nlohmann::json& v, const SchemaNode& n);
  void check_list(const nlohmann::json& v, const SchemaNode& n);
  void check_fields(const nlohmann::json& v, const Effective& e, bool resource, bool root);
  void check_items(const nlohmann::json& v, const Effective& e);
  bool branch_ok(const nlohmann::json& v, const SchemaNode* branch) const;

  void add(const std::string& field, const char* reason, std::string message);
  void invalid(const nlohmann::json& value, const std::string& detail);
  void unknown(const std::string& field);
  std::string child(const std::string& key) const;
  std::string body_path() const;  // "<path> in body", as kube-openapi words locations

  Mode m_mode;
  ValidationResult& m_result;
  bool m_report_unknown;
  std::string m_path;
};

// Go's rendering of a bad value in a field error: strings quoted, numbers/bools bare,
// null as "null", objects/arrays as JSON.
std::string render_value(const nlohmann::json& v);
// The JSON type name kube-openapi reports: string, integer, number, boolean, object, array, null.
std::string json_type_name(const nlohmann::json& v);

// Checks of metadata beyond types (name/generateName, name format, label values), as
// ValidateObjectMeta does; appends causes with fields under "metadata.".
void check_object_meta(const nlohmann::json& meta, const std::string& kind, std::vector<StatusCause>& causes);

}  // namespace trainctl::schema
