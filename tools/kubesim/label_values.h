// An object's labels (metadata.labels), packed in one string: kept beside each stored object so
// that a list's label selector reads them without walking the object's JSON tree, as
// kube-apiserver's watch cache keeps each object's labels.Set beside it
// (k8s.io/apiserver pkg/storage/cacher/store.go storeElement: Key, Object, Labels, Fields) and
// filters a list on it (cacher.go filterWithAttrsAndPrefixFunction). field_values.h keeps the
// selectable fields the same way.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace kubesim {

class LabelValues {
 public:
  // The labels of obj (its metadata.labels; none when absent or not an object).
  static LabelValues of(const nlohmann::json& obj);
  // The same from a labels object itself (null: none).
  static LabelValues of_labels(const nlohmann::json& labels);
  // The value of the label `key`; nullopt when there is no such label. A value that is not a
  // string (kube-apiserver refuses those) is its JSON text.
  std::optional<std::string_view> get(std::string_view key) const;

 private:
  std::string m_packed;  // key, value, key, value, ... (packed_strings.h)
};

}  // namespace kubesim
