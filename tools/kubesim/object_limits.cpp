#include "kubesim/object_limits.h"

#include "core/base64.h"

namespace kubesim {

namespace {

json too_long(const std::string& field, size_t limit) {
  return {{"reason", "FieldValueTooLong"},
          {"message", "Too long: may not be more than " + std::to_string(limit) + " bytes"},
          {"field", field}};
}

size_t string_bytes(const json& map, bool base64) {
  size_t total = 0;
  if (!map.is_object()) return 0;
  for (const auto& [_, v] : map.items()) {
    if (!v.is_string()) continue;
    const auto& s = v.get_ref<const std::string&>();
    if (!base64) {
      total += s.size();
    } else if (auto bytes = trainctl::base64_decode(s)) {
      total += bytes->size();
    } else {
      total += s.size();
    }
  }
  return total;
}

}  // namespace

void object_size_causes(const ResourceType& rt, const json& obj, json& causes) {
  static const json none = json::object();
  const json& md = obj.contains("metadata") ? obj["metadata"] : none;
  if (auto a = md.find("annotations"); a != md.end() && a->is_object()) {
    size_t total = 0;
    for (const auto& [k, v] : a->items()) total += k.size() + (v.is_string() ? v.get_ref<const std::string&>().size() : 0);
    if (total > kTotalAnnotationSizeLimit) causes.push_back(too_long("metadata.annotations", kTotalAnnotationSizeLimit));
  }
  if (!rt.group.empty() || !obj.is_object()) return;
  if (rt.kind == "ConfigMap") {
    const size_t total = string_bytes(obj.value("data", json()), false) + string_bytes(obj.value("binaryData", json()), true);
    if (total > kMaxSecretSize) causes.push_back(too_long("[]", kMaxSecretSize));
  } else if (rt.kind == "Secret") {
    // stringData is merged into data before validation (core/v1 conversion), its keys winning.
    json data = obj.value("data", json::object());
    size_t total = string_bytes(obj.value("stringData", json()), false);
    if (data.is_object())
      for (const auto& [k, v] : data.items())
        if (!obj.contains("stringData") || !obj["stringData"].contains(k)) total += string_bytes(json{{k, v}}, true);
    if (total > kMaxSecretSize) causes.push_back(too_long("data", kMaxSecretSize));
  }
}

void check_storage_size(const ResourceType& rt, const json& obj) {
  static const json none = json::object();
  const json& md = obj.contains("metadata") ? obj["metadata"] : none;
  // The etcd key: /registry/<resource>/<namespace>/<name>, beside the value.
  const size_t key = 10 + rt.plural.size() + md.value("namespace", "").size() + md.value("name", "").size();
  if (obj.dump().size() + key > kEtcdMaxRequestBytes) throw StatusError(500, "", "etcdserver: request is too large");
}

}  // namespace kubesim
