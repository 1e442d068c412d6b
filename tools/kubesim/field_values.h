// The values of an object's selectable fields, packed in one string: kept beside each stored
// object so that a list's field selector compares them without walking the object's JSON tree,
// as kube-apiserver's watch cache keeps each object's fields.Set beside it
// (k8s.io/apiserver pkg/storage/cacher/store.go storeElement: Key, Object, Labels, Fields).
// Which fields, and how their values are computed, is selectable_fields.h.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace kubesim {

class FieldValues {
 public:
  // Appends the next value (values are read back by their position).
  void add(std::string_view value);
  // The value at position i ("" past the end).
  std::string_view get(size_t i) const;
  size_t size() const { return m_count; }

 private:
  std::string m_packed;  // each value as its length (LEB128) then its bytes
  size_t m_count = 0;
};

}  // namespace kubesim
