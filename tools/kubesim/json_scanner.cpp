// Go's JSON scanner (encoding/json scanner.go in sigs.k8s.io/json): the syntax check of
// json_decode.h, with its messages.
#include "kubesim/json_decode.h"

#include "core/utf8.h"

#include <cctype>
#include <cstdio>

namespace kubesim {

namespace {

constexpr size_t kMaxDepth = 10000;  // scanner.go maxNestingDepth

// scanner.go quoteChar: the byte as a rune, quoted as strconv.Quote quotes it, in '...'.
std::string quote_char(unsigned char c) {
  if (c == '\'') return R"('\'')";
  if (c == '"') return "'\"'";
  char buf[16];
  switch (c) {
    case '\a': return R"('\a')";
    case '\b': return R"('\b')";
    case '\f': return R"('\f')";
    case '\n': return R"('\n')";
    case '\r': return R"('\r')";
    case '\t': return R"('\t')";
    case '\v': return R"('\v')";
    case '\\': return R"('\\')";
    default: break;
  }
  if (c < 0x20 || c == 0x7F) {
    std::snprintf(buf, sizeof buf, "'\\x%02x'", c);
    return buf;
  }
  if (c >= 0x80 && (c < 0xA1 || c == 0xAD)) {  // not printable to strconv.IsPrint
    std::snprintf(buf, sizeof buf, "'\\u%04x'", c);
    return buf;
  }
  std::string out = "'";
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else {  // U+00A1..U+00FF in UTF-8
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
  return out + "'";
}

// A syntax check with the states and messages of Go's JSON scanner, iterative so that depth
// costs no stack. Inside strings, bytes that are not UTF-8 are replaced in `out`.
class Scanner {
 public:
  explicit Scanner(std::string_view s) : m_s(s) {}

  // The body with U+FFFD for bytes that are not UTF-8 inside strings; throws JsonSyntaxError.
  std::string run() {
    m_out.reserve(m_s.size());
    for (;;) {
      value();
      for (;;) {  // after a value
        space();
        if (m_stack.empty()) {
          if (m_i < m_s.size()) fail("after top-level value");
          return std::move(m_out);
        }
        need_more();
        const char c = m_s[m_i];
        if (m_stack.back() == '{') {
          if (c == '}') {
            close();
            continue;
          }
          if (c != ',') fail("after object key:value pair");
          take();
          key();
          break;
        }
        if (c == ']') {
          close();
          continue;
        }
        if (c != ',') fail("after array element");
        take();
        break;
      }
    }
  }

 private:
  [[noreturn]] void fail(const std::string& context) {
    if (m_i >= m_s.size()) throw JsonSyntaxError("unexpected end of JSON input");
    throw JsonSyntaxError("invalid character " + quote_char(static_cast<unsigned char>(m_s[m_i])) + " " + context);
  }
  void need_more() {
    if (m_i >= m_s.size()) throw JsonSyntaxError("unexpected end of JSON input");
  }
  void take() { m_out += m_s[m_i++]; }
  void space() {
    while (m_i < m_s.size() && (m_s[m_i] == ' ' || m_s[m_i] == '\t' || m_s[m_i] == '\r' || m_s[m_i] == '\n')) take();
  }
  void open(char c) {
    m_stack.push_back(c);
    if (m_stack.size() > kMaxDepth) fail("exceeded max depth");
    take();
  }
  void close() {
    m_stack.pop_back();
    take();
  }
  // A key, its colon, and the value after it is left to value().
  void key() {
    space();
    need_more();
    if (m_s[m_i] != '"') fail("looking for beginning of object key string");
    string();
    space();
    need_more();
    if (m_s[m_i] != ':') fail("after object key");
    take();
  }
  // One value; an object or array is opened and its first key or element left to run().
  void value() {
    for (;;) {
      space();
      need_more();
      const char c = m_s[m_i];
      if (c == '{') {
        open(c);
        space();
        need_more();
        if (m_s[m_i] == '}') {
          close();
          return;
        }
        key();
        continue;  // the member's value
      }
      if (c == '[') {
        open(c);
        space();
        need_more();
        if (m_s[m_i] == ']') {
          close();
          return;
        }
        continue;  // the first element
      }
      if (c == '"') return string();
      if (c == '-' || (c >= '0' && c <= '9')) return number();
      if (c == 't') return literal("true");
      if (c == 'f') return literal("false");
      if (c == 'n') return literal("null");
      fail("looking for beginning of value");
    }
  }
  void string() {
    take();  // the opening quote
    for (;;) {
      need_more();
      const auto c = static_cast<unsigned char>(m_s[m_i]);
      if (c == '"') return take();
      if (c == '\\') {
        take();
        need_more();
        const char e = m_s[m_i];
        if (e == 'u') {
          m_out.pop_back();  // the backslash: the whole escape is written below
          ++m_i;
          const unsigned v = hex4();
          if (v >= 0xD800 && v <= 0xDBFF && low_surrogate_follows()) {
            m_out += m_s.substr(m_i - 6, 12);  // a pair: one code point
            m_i += 6;
          } else if (v >= 0xD800 && v <= 0xDFFF) {
            m_out += "\\ufffd";  // a lone surrogate reads as U+FFFD (decode.go unquote)
          } else {
            m_out += m_s.substr(m_i - 6, 6);
          }
        } else if (std::string_view("\"\\/bfnrt").find(e) != std::string_view::npos) {
          take();
        } else {
          fail("in string escape code");
        }
        continue;
      }
      if (c < 0x20) fail("in string literal");
      if (c < 0x80) {
        take();
        continue;
      }
      char32_t cp = 0;
      if (const size_t len = trainctl::decode_utf8(m_s, m_i, cp); len > 0) {
        m_out.append(m_s.substr(m_i, len));
        m_i += len;
      } else {
        m_out += kUtf8Replacement;
        ++m_i;
      }
    }
  }
  // The four hex digits of a backslash-u escape (m_i after the u), checked as the scanner does.
  unsigned hex4() {
    unsigned v = 0;
    for (int k = 0; k < 4; ++k) {
      need_more();
      const char h = m_s[m_i];
      if (!std::isxdigit(static_cast<unsigned char>(h))) fail("in \\u hexadecimal character escape");
      v = v * 16 + static_cast<unsigned>(h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
      ++m_i;
    }
    return v;
  }
  bool low_surrogate_follows() const {
    if (m_i + 6 > m_s.size() || m_s[m_i] != '\\' || m_s[m_i + 1] != 'u') return false;
    unsigned v = 0;
    for (size_t k = m_i + 2; k < m_i + 6; ++k) {
      const char h = m_s[k];
      if (!std::isxdigit(static_cast<unsigned char>(h))) return false;
      v = v * 16 + static_cast<unsigned>(h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
    }
    return v >= 0xDC00 && v <= 0xDFFF;
  }
  void digits() {
    while (m_i < m_s.size() && m_s[m_i] >= '0' && m_s[m_i] <= '9') take();
  }
  void number() {
    if (m_s[m_i] == '-') {
      take();
      need_more();
      if (m_s[m_i] < '0' || m_s[m_i] > '9') fail("in numeric literal");
    }
    if (m_s[m_i] == '0') take();
    else digits();
    if (m_i < m_s.size() && m_s[m_i] == '.') {
      take();
      need_more();
      if (m_s[m_i] < '0' || m_s[m_i] > '9') fail("after decimal point in numeric literal");
      digits();
    }
    if (m_i < m_s.size() && (m_s[m_i] == 'e' || m_s[m_i] == 'E')) {
      take();
      need_more();
      if (m_s[m_i] == '+' || m_s[m_i] == '-') take();
      need_more();
      if (m_s[m_i] < '0' || m_s[m_i] > '9') fail("in exponent of numeric literal");
      digits();
    }
  }
  void literal(std::string_view word) {
    take();
    for (size_t k = 1; k < word.size(); ++k) {
      need_more();
      if (m_s[m_i] != word[k])
        fail("in literal " + std::string(word) + " (expecting " + quote_char(static_cast<unsigned char>(word[k])) + ")");
      take();
    }
  }

  std::string_view m_s;
  size_t m_i = 0;
  std::string m_out;
  std::vector<char> m_stack;
};

}  // namespace

std::string scan_go_json(std::string_view body) { return Scanner(body).run(); }

}  // namespace kubesim
