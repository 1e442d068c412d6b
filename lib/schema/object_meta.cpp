// The built-in schema of metav1.ObjectMeta: what the API server keeps and type-checks of an
// object's `metadata` whatever the CRD declares for it.
#include "schema/schema_node.h"

namespace trainctl::schema {

namespace {

// Field list and types of k8s.io/apimachinery/pkg/apis/meta/v1.ObjectMeta.
constexpr const char* kObjectMetaSchema = R"json({
  "type": "object",
  "properties": {
    "name": {"type": "string"},
    "generateName": {"type": "string"},
    "namespace": {"type": "string"},
    "selfLink": {"type": "string"},
    "uid": {"type": "string"},
    "resourceVersion": {"type": "string"},
    "generation": {"type": "integer", "format": "int64"},
    "creationTimestamp": {"type": "string", "format": "date-time"},
    "deletionTimestamp": {"type": "string", "format": "date-time"},
    "deletionGracePeriodSeconds": {"type": "integer", "format": "int64"},
    "labels": {"type": "object", "additionalProperties": {"type": "string"}},
    "annotations": {"type": "object", "additionalProperties": {"type": "string"}},
    "ownerReferences": {
      "type": "array",
      "items": {
        "type": "object",
        "required": ["apiVersion", "kind", "name", "uid"],
        "properties": {
          "apiVersion": {"type": "string"},
          "kind": {"type": "string"},
          "name": {"type": "string"},
          "uid": {"type": "string"},
          "controller": {"type": "boolean"},
          "blockOwnerDeletion": {"type": "boolean"}
        }
      }
    },
    "finalizers": {"type": "array", "items": {"type": "string"}},
    "managedFields": {
      "type": "array",
      "items": {
        "type": "object",
        "properties": {
          "manager": {"type": "string"},
          "operation": {"type": "string"},
          "apiVersion": {"type": "string"},
          "time": {"type": "string", "format": "date-time"},
          "fieldsType": {"type": "string"},
          "fieldsV1": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
          "subresource": {"type": "string"}
        }
      }
    }
  }
})json";

struct BuiltIn {
  NodeArena arena;
  RegexCache regexes;
  std::unordered_map<std::string, const SchemaNode*> memo;
  const SchemaNode* root = nullptr;

  BuiltIn() {
    NodeCompiler compiler(arena, regexes, nullptr, memo, "ObjectMeta", true);
    root = compiler.compile(nlohmann::json::parse(kObjectMetaSchema));
  }
};

}  // namespace

const SchemaNode* object_meta_schema() {
  static const BuiltIn built_in;
  return built_in.root;
}

}  // namespace trainctl::schema
