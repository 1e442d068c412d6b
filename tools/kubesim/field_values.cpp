#include "kubesim/field_values.h"

#include "kubesim/packed_strings.h"

namespace kubesim {

void FieldValues::add(std::string_view value) {
  append_packed(m_packed, value);
  ++m_count;
}

std::string_view FieldValues::get(size_t i) const {
  if (i >= m_count) return {};
  size_t pos = 0;
  for (size_t k = 0; k < i; ++k) next_packed(m_packed, pos);
  return next_packed(m_packed, pos);
}

}  // namespace kubesim
