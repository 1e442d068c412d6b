#include "kube/field_set.h"

namespace trainctl::kube {

FieldSet::FieldSet(std::initializer_list<std::string_view> dotted) {
  for (auto d : dotted) {
    std::vector<std::string_view> keys;
    while (true) {
      const size_t dot = d.find('.');
      keys.push_back(d.substr(0, dot));
      if (dot == std::string_view::npos) break;
      d.remove_prefix(dot + 1);
    }
    add(keys);
  }
}

FieldSet& FieldSet::add(const std::vector<std::string_view>& keys) {
  FieldSet* at = this;
  for (auto key : keys) {
    if (at->m_all) return *this;
    FieldSet* next = nullptr;
    for (auto& [k, child] : at->m_keys)
      if (k == key) next = &child;
    if (!next) {
      at->m_keys.emplace_back(std::string(key), FieldSet());
      next = &at->m_keys.back().second;
    }
    at = next;
  }
  at->m_all = true;
  at->m_keys.clear();
  return *this;
}

const FieldSet* FieldSet::find(std::string_view key) const {
  if (m_all) return this;
  for (const auto& [k, child] : m_keys)
    if (k == key) return &child;
  return nullptr;
}

}  // namespace trainctl::kube
