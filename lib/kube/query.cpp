#include "kube/query.h"

#include <cctype>
#include <cstdio>

namespace trainctl::kube {

std::string percent_encode(std::string_view text, bool (*keep)(unsigned char c)) {
  std::string out;
  out.reserve(text.size() * 3);
  for (unsigned char c : text) {
    if (keep(c)) {
      out.push_back(static_cast<char>(c));
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    }
  }
  return out;
}

std::string url_encode(std::string_view text) {
  return percent_encode(
      text, [](unsigned char c) { return std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~'; });
}

Query& Query::add(std::string key, std::string value) {
  m_params.emplace_back(std::move(key), std::move(value));
  return *this;
}

std::string Query::encode() const {
  std::string out;
  for (const auto& [key, value] : m_params) {
    out += out.empty() ? '?' : '&';
    out += key;
    out += '=';
    out += url_encode(value);
  }
  return out;
}

std::string ListQuery::encode() const {
  Query q;
  if (!label_selector.empty()) q.add("labelSelector", label_selector);
  if (!field_selector.empty()) q.add("fieldSelector", field_selector);
  if (limit > 0) q.add("limit", std::to_string(limit));
  if (!continue_token.empty()) q.add("continue", continue_token);
  return q.encode();
}

}  // namespace trainctl::kube
