// Validation and pruning of Kubernetes objects against real schemas: the CustomResource
// Definitions under DIR/crds and the built-in OpenAPI v3 documents under DIR/openapi/vX.Y,
// with the rules and the wording of kube-apiserver (structural schemas, field validation
// Strict / Warn / Ignore, metav1.StatusCause reasons).
// Checked: type, format int32/int64 (integral), date-time (CRDs), enum, required, nullable,
// minimum/maximum, minLength/maxLength, pattern, minItems/maxItems, list-type set/map
// duplicates, additionalProperties, allOf/anyOf/oneOf, $ref, x-kubernetes-int-or-string,
// -preserve-unknown-fields and -embedded-resource, and ObjectMeta (name or generateName,
// name format, label values). Not evaluated: CEL rules (x-kubernetes-validations).
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/errors.h"

namespace trainctl::schema {

// The fieldValidation directive of the API server.
//  Strict: unknown fields are errors (the server answers 400 "strict decoding error").
//  Warn:   unknown fields are reported as warnings and pruned.
//  Ignore: unknown fields are silently pruned.
enum class Mode { Strict, Warn, Ignore };

// StatusCause reasons, spelled as kube-apiserver spells metav1.CauseType.
inline constexpr const char* kReasonInvalid = "FieldValueInvalid";
inline constexpr const char* kReasonRequired = "FieldValueRequired";
inline constexpr const char* kReasonNotSupported = "FieldValueNotSupported";
inline constexpr const char* kReasonTypeInvalid = "FieldValueTypeInvalid";
inline constexpr const char* kReasonTooMany = "FieldValueTooMany";
inline constexpr const char* kReasonTooLong = "FieldValueTooLong";
inline constexpr const char* kReasonDuplicate = "FieldValueDuplicate";
inline constexpr const char* kReasonUnknown = "FieldValueUnknown";

struct ValidationResult {
  // False when no schema is known for the object's apiVersion/kind (then nothing else is set).
  bool schema_found = true;
  // Every problem found. cause.field is a path like `spec.pytorchReplicaSpecs.Master.replicas`
  // or `spec.template.spec.containers[0].name`; cause.message is the error body as the API
  // server puts it in a StatusCause, e.g. `Unsupported value: "Bogus": supported values:
  // "OpenMPI", "Intel", "MPICH"`. In Strict mode each unknown field is also a cause with reason
  // FieldValueUnknown and message `unknown field "spec.foo"`, listed first.
  std::vector<StatusCause> causes;
  // Paths of fields the schema does not declare (all modes), e.g. "spec.foo".
  std::vector<std::string> unknown_fields;

  // True when the object would be accepted under the mode it was validated with.
  bool ok() const { return schema_found && causes.empty(); }
  // Causes other than unknown fields: what the server reports as 422 Invalid.
  std::vector<StatusCause> schema_causes() const;
  // Unknown fields in Strict mode make the server answer 400 BadRequest before validating:
  // `strict decoding error: unknown field "spec.foo", unknown field "spec.bar"`.
  bool has_strict_errors() const;
  std::string strict_error_message() const;
  // Warn mode: one warning per unknown field, `unknown field "spec.foo"`.
  std::vector<std::string> warnings() const;
  // The 422 message: `PyTorchJob.kubeflow.org "demo" is invalid: spec.x: Required value`
  // (several causes are listed as `[a, b]`). qualified_kind is Kind or Kind.group.
  std::string invalid_message(const std::string& qualified_kind, const std::string& name) const;
  // All causes as `field: message` lines, for test failure output.
  std::string to_string() const;
};

struct CrdVersion {
  std::string name;  // "v1"
  bool served = false;
  bool storage = false;
  bool status_subresource = false;  // spec.versions[].subresources.status is set
  bool scale_subresource = false;
};

struct CrdInfo {
  std::string name;   // metadata.name, "pytorchjobs.kubeflow.org"
  std::string group;  // "kubeflow.org"
  std::string kind;   // "PyTorchJob"
  std::string list_kind;
  std::string plural;    // "pytorchjobs"
  std::string singular;  // "pytorchjob"
  std::vector<std::string> short_names;
  std::vector<std::string> categories;
  bool namespaced = true;            // spec.scope == "Namespaced"
  std::vector<CrdVersion> versions;  // in the order of the CRD

  // The served version marked storage, else the first served one; nullptr when none.
  const CrdVersion* storage_version() const;
};

class SchemaSet;
struct SchemaNode;  // internal

// The schema of one apiVersion/kind. Owned by its SchemaSet; thread-safe for concurrent use.
class Schema {
 public:
  const std::string& api_version() const { return m_api_version; }
  const std::string& kind() const { return m_kind; }
  bool is_crd() const { return m_crd; }

  // Validates a whole object (apiVersion, kind, metadata, spec, ...). apiVersion and kind
  // are not compared with this schema's; SchemaSet::validate() picks the schema by them.
  ValidationResult validate(const nlohmann::json& obj, Mode mode = Mode::Strict) const;
  // A copy with every field the schema does not declare removed (as the API server stores
  // it), honouring x-kubernetes-preserve-unknown-fields and embedded resources. Nulls in
  // fields that are not nullable are dropped too. Root apiVersion/kind are always kept and
  // metadata keeps the ObjectMeta fields.
  nlohmann::json prune(const nlohmann::json& obj) const;
  // CRDs: a copy with the schema's `default` values set in absent fields of the objects
  // present (array items and map values included), as the API server defaults after
  // pruning; nulls in non-nullable fields with a default get the default. Built-in kinds are
  // returned unchanged (their defaulting is Go code, not schema).
  nlohmann::json apply_defaults(const nlohmann::json& obj) const;

  Schema(std::string api_version, std::string kind, bool crd, const SchemaNode* root);

 private:
  std::string m_api_version;
  std::string m_kind;
  bool m_crd;
  const SchemaNode* m_root;
};

class SchemaSet {
 public:
  SchemaSet();
  ~SchemaSet();
  SchemaSet(SchemaSet&&) noexcept;
  SchemaSet& operator=(SchemaSet&&) noexcept;

  // Loads every CRD in DIR/crds/*.yaml|*.yml|*.json (a file may hold several documents) and,
  // when with_openapi is set and DIR/openapi exists, the newest DIR/openapi/vX.Y/*.json
  // (parsed on first use of one of its kinds). Throws ConfigError naming the file when a file
  // is unreadable or malformed, and when DIR/crds is missing.
  static SchemaSet load_dir(const std::string& dir, bool with_openapi = true);

  // The CRDs loaded, sorted by name.
  const std::vector<CrdInfo>& crds() const;
  const CrdInfo* find_crd(std::string_view group, std::string_view kind) const;

  // The schema for apiVersion ("kubeflow.org/v1", "v1", "apps/v1") and kind; nullptr when
  // unknown. Core kinds are looked up by x-kubernetes-group-version-kind in the OpenAPI
  // documents; the first lookup of a document parses it (a malformed one throws ConfigError).
  const Schema* find(std::string_view api_version, std::string_view kind) const;

  // find(obj.apiVersion, obj.kind)->validate(obj, mode); schema_found=false when none.
  ValidationResult validate(const nlohmann::json& obj, Mode mode = Mode::Strict) const;
  // find(...)->prune(obj); the object unchanged when no schema is known.
  nlohmann::json prune(const nlohmann::json& obj) const;
  // find(...)->apply_defaults(obj); the object unchanged when no schema is known.
  nlohmann::json apply_defaults(const nlohmann::json& obj) const;

  // The OpenAPI version directory in use ("v1.35"), empty when none was loaded.
  const std::string& openapi_version() const;

 private:
  const Schema* find_for(const nlohmann::json& obj) const;  // by obj.apiVersion / obj.kind

  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace trainctl::schema
