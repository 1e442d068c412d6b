#include "kube/kubeconfig_util.h"

#include "core/text.h"

namespace trainctl::kube::detail {

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
