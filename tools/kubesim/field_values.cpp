#include "kubesim/field_values.h"

namespace kubesim {

void FieldValues::add(std::string_view value) {
  size_t n = value.size();
  do {
    const auto low = static_cast<unsigned char>(n & 0x7f);
    n >>= 7;
    m_packed.push_back(static_cast<char>(n ? low | 0x80 : low));
  } while (n);
  m_packed.append(value);
  ++m_count;
}

std::string_view FieldValues::get(size_t i) const {
  if (i >= m_count) return {};
  size_t pos = 0;
  for (size_t k = 0;; ++k) {
    size_t len = 0;
    for (int shift = 0;; shift += 7) {
      const auto byte = static_cast<unsigned char>(m_packed[pos++]);
      len |= static_cast<size_t>(byte & 0x7f) << shift;
      if (!(byte & 0x80)) break;
    }
    if (k == i) return std::string_view(m_packed).substr(pos, len);
    pos += len;
  }
}

}  // namespace kubesim
