#include "kubesim/label_values.h"

#include "kubesim/packed_strings.h"

namespace kubesim {

LabelValues LabelValues::of(const nlohmann::json& obj) {
  if (!obj.is_object()) return {};
  const auto md = obj.find("metadata");
  if (md == obj.end() || !md->is_object()) return {};
  const auto labels = md->find("labels");
  return labels == md->end() ? LabelValues() : of_labels(*labels);
}

LabelValues LabelValues::of_labels(const nlohmann::json& labels) {
  LabelValues v;
  if (!labels.is_object()) return v;
  for (auto it = labels.begin(); it != labels.end(); ++it) {
    append_packed(v.m_packed, it.key());
    append_packed(v.m_packed, it->is_string() ? it->get_ref<const std::string&>() : it->dump());
  }
  return v;
}

std::optional<std::string_view> LabelValues::get(std::string_view key) const {
  size_t pos = 0;
  while (pos < m_packed.size()) {
    const std::string_view k = next_packed(m_packed, pos);
    const std::string_view v = next_packed(m_packed, pos);
    if (k == key) return v;
  }
  return std::nullopt;
}

}  // namespace kubesim
