#include "kube/kubeconfig_util.h"

#include <fcntl.h>
#include <openssl/evp.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>

namespace trainctl::kube::detail {

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
  int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(clean.data()), static_cast<int>(clean.size()));
  if (n < 0) return std::nullopt;
  // EVP_DecodeBlock counts the padding as decoded zero bytes.
  out.resize(static_cast<size_t>(n) - padding);
  return out;
}

std::string base64_encode(std::string_view bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
  out.resize(static_cast<size_t>(n));
  return out;
}

std::optional<std::string> read_file(const std::string& path, std::string& error) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = std::strerror(errno);
    return std::nullopt;
  }
  std::string out;
  char buf[8192];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      error = std::strerror(errno);  // e.g. "Is a directory"
      ::close(fd);
      return std::nullopt;
    }
    if (n == 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return out;
}

std::string trim(std::string_view text) {
  size_t b = 0;
  size_t e = text.size();
  while (b < e && std::isspace(static_cast<unsigned char>(text[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(text[e - 1]))) --e;
  return std::string(text.substr(b, e - b));
}

std::string one_line(std::string_view text, size_t max_length) {
  std::string t = trim(text);
  std::string out;
  bool pending_break = false;
  for (char c : t) {
    if (c == '\n' || c == '\r') {
      pending_break = true;
      continue;
    }
    if (pending_break) {
      while (!out.empty() && out.back() == ' ') out.pop_back();
      out += "; ";
      pending_break = false;
      if (c == ' ' || c == '\t') continue;
    }
    if (c == '\t') c = ' ';
    if (out.empty() || c != ' ' || out.back() != ' ') out.push_back(c);
  }
  if (out.size() > max_length) out = out.substr(0, max_length) + "...";
  return out;
}

}  // namespace trainctl::kube::detail
