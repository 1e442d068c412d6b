// Strings packed one after another in one std::string, each as its length (LEB128) then its
// bytes: the values kept beside each stored object (field_values.h, label_values.h).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace kubesim {

inline void append_packed(std::string& packed, std::string_view s) {
  size_t n = s.size();
  do {
    const auto low = static_cast<unsigned char>(n & 0x7f);
    n >>= 7;
    packed.push_back(static_cast<char>(n ? low | 0x80 : low));
  } while (n);
  packed.append(s);
}

// The string at pos (which must be < packed.size()); pos moves past it.
inline std::string_view next_packed(std::string_view packed, size_t& pos) {
  size_t len = 0;
  for (int shift = 0;; shift += 7) {
    const auto byte = static_cast<unsigned char>(packed[pos++]);
    len |= static_cast<size_t>(byte & 0x7f) << shift;
    if (!(byte & 0x80)) break;
  }
  const std::string_view s = packed.substr(pos, len);
  pos += len;
  return s;
}

}  // namespace kubesim
