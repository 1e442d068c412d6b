// Query strings of requests: parameters in the order given, each value percent-encoded;
// and the query of a list (label selector, field selector, limit, continue), as
// metav1.ListOptions names them.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace trainctl::kube {

// Percent-encodes a query value: everything but ASCII letters, digits and "-_.~" (RFC 3986
// unreserved characters), a space as %20.
std::string url_encode(std::string_view text);

// Percent-encodes ("%2F") every byte of `text` for which `keep` is false.
std::string percent_encode(std::string_view text, bool (*keep)(unsigned char c));

class Query {
 public:
  Query& add(std::string key, std::string value);
  bool empty() const { return m_params.empty(); }
  // "?k=v&k2=v2" with the values encoded; "" when there are none.
  std::string encode() const;

 private:
  std::vector<std::pair<std::string, std::string>> m_params;
};

struct ListQuery {
  std::string label_selector;  // "app=x,release=y", unencoded
  std::string field_selector;  // "status.phase!=Failed", unencoded
  int limit = 0;               // 0: no limit
  std::string continue_token;

  // ?labelSelector=..&fieldSelector=..&limit=..&continue=.. with only the parameters set.
  std::string encode() const;
};

}  // namespace trainctl::kube
