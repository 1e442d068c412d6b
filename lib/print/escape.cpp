#include "print/escape.h"

#include <cstdio>

#include "core/utf8.h"

namespace trainctl::print {

namespace {

bool is_wide(char32_t cp) {
  return (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0x303E) || (cp >= 0x3041 && cp <= 0x33FF) ||
         (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xA000 && cp <= 0xA4CF) ||
         (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F) ||
         (cp >= 0xFF00 && cp <= 0xFF60) || (cp >= 0xFFE0 && cp <= 0xFFE6) ||
         (cp >= 0x1F300 && cp <= 0x1F64F) || (cp >= 0x1F900 && cp <= 0x1F9FF) ||
         (cp >= 0x20000 && cp <= 0x3FFFD);
}

bool is_combining(char32_t cp) {
  return (cp >= 0x0300 && cp <= 0x036F) || (cp >= 0x200B && cp <= 0x200F) || (cp >= 0xFE00 && cp <= 0xFE0F) ||
         (cp >= 0x20D0 && cp <= 0x20FF);
}

}  // namespace

bool is_utf8(std::string_view text) {
  char32_t cp = 0;
  for (size_t i = 0, len = 0; i < text.size(); i += len)
    if ((len = decode_utf8(text, i, cp)) == 0) return false;
  return true;
}

std::string sanitize(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  char buf[8];
  for (size_t i = 0; i < text.size();) {
    char32_t cp = 0;
    size_t len = decode_utf8(text, i, cp);
    if (len == 0) {
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(text[i]));
      out += buf;
      ++i;
      continue;
    }
    if (cp < 0x20 || cp == 0x7F) {
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(cp));
      out += buf;
    } else if (cp >= 0x80 && cp <= 0x9F) {
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp));
      out += buf;
    } else {
      out.append(text.substr(i, len));
    }
    i += len;
  }
  return out;
}

int display_width(std::string_view text) {
  int w = 0;
  for (size_t i = 0; i < text.size();) {
    char32_t cp = 0;
    size_t len = decode_utf8(text, i, cp);
    if (len == 0) {
      ++w;
      ++i;
      continue;
    }
    w += is_combining(cp) ? 0 : (is_wide(cp) ? 2 : 1);
    i += len;
  }
  return w;
}

std::string truncate_to_width(std::string_view text, int width, std::string_view ellipsis) {
  if (display_width(text) <= width) return std::string(text);
  const int room = width - display_width(ellipsis);
  if (room < 0) return std::string(ellipsis.substr(0, static_cast<size_t>(width < 0 ? 0 : width)));
  std::string out;
  int w = 0;
  for (size_t i = 0; i < text.size();) {
    char32_t cp = 0;
    size_t len = decode_utf8(text, i, cp);
    if (len == 0) len = 1;
    int cw = (len == 1) ? 1 : (is_combining(cp) ? 0 : (is_wide(cp) ? 2 : 1));
    if (w + cw > room) break;
    out.append(text.substr(i, len));
    w += cw;
    i += len;
  }
  return out + std::string(ellipsis);
}

}  // namespace trainctl::print
