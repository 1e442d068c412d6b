// The fields of an object that a reader uses. A list read that names them (StreamRead::fields)
// gets each item built with only these fields (page_stream.h), so the thousands of pods or
// jobs of a list are not built in full to read a dozen fields of each.
//
// A path names keys from the item down; where a key holds an array, the rest of the path
// applies to each of its elements ("spec.containers.resources" keeps each container's
// resources). A path that ends keeps all that lies below it.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace trainctl::kube {

class FieldSet {
 public:
  // Keeps nothing until paths are added.
  FieldSet() = default;
  // Keeps these dotted paths ("metadata.name", "status") and nothing else. For keys that
  // hold dots (label keys), use add.
  FieldSet(std::initializer_list<std::string_view> dotted);

  // Adds a path given key by key; one below a path already kept whole changes nothing.
  FieldSet& add(const std::vector<std::string_view>& keys);

  // Whether everything below this point is kept.
  bool keeps_all() const { return m_all; }
  // The fields kept below `key`, or nullptr when the key is not kept.
  const FieldSet* find(std::string_view key) const;

 private:
  bool m_all = false;  // a path ended here
  std::vector<std::pair<std::string, FieldSet>> m_keys;
};

}  // namespace trainctl::kube
