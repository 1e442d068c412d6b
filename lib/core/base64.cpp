#include "core/base64.h"

#include <openssl/evp.h>

#include <cctype>

namespace trainctl {

std::string base64_encode(std::string_view bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  int n =
      EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                      reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
  out.resize(static_cast<size_t>(n));
  return out;
}

std::optional<std::string> base64_decode(std::string_view text) {
  std::string clean;
  clean.reserve(text.size());
  for (char c : text) {
    if (!std::isspace(static_cast<unsigned char>(c))) clean.push_back(c);
  }
  if (clean.empty()) return std::string();
  if (clean.size() % 4 != 0) return std::nullopt;
  size_t padding = 0;
  if (clean.back() == '=') padding = clean[clean.size() - 2] == '=' ? 2 : 1;
  // '=' may only appear as trailing padding; EVP_DecodeBlock alone would accept it elsewhere.
  if (clean.find('=') < clean.size() - padding) return std::nullopt;
  std::string out(clean.size() / 4 * 3, '\0');
  int n =
      EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                      reinterpret_cast<const unsigned char*>(clean.data()), static_cast<int>(clean.size()));
  if (n < 0) return std::nullopt;
  // EVP_DecodeBlock counts the padding as decoded zero bytes.
  out.resize(static_cast<size_t>(n) - padding);
  return out;
}

}  // namespace trainctl
