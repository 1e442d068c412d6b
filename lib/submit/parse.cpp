#include "submit/parse.h"

#include <chrono>
#include <regex>
#include <stdexcept>

#include "core/duration.h"
#include "core/errors.h"

namespace trainctl::submit {

namespace {

bool matches(std::string_view s, const std::regex& re) { return std::regex_match(s.begin(), s.end(), re); }

}  // namespace

std::string dq(const std::string& s) { return "\"" + s + "\""; }

bool is_dns1123_label(std::string_view s) {
  static const std::regex re("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  return !s.empty() && s.size() <= 63 && matches(s, re);
}

bool is_dns1123_subdomain(std::string_view s) {
  static const std::regex re("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  return !s.empty() && s.size() <= 253 && matches(s, re);
}

bool is_label_value(std::string_view s) {
  static const std::regex re("([A-Za-z0-9]([-_.A-Za-z0-9]*[A-Za-z0-9])?)?");
  return s.size() <= 63 && matches(s, re);
}

bool is_label_key(std::string_view s) {
  auto slash = s.find('/');
  std::string_view name = s;
  if (slash != std::string_view::npos) {
    if (!is_dns1123_subdomain(s.substr(0, slash))) return false;
    name = s.substr(slash + 1);
  }
  return !name.empty() && is_label_value(name);
}

bool is_quantity(std::string_view s) {
  static const std::regex re("\\+?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([KMGTPE]i|[numkMGTPE]|[eE][-+]?[0-9]+)?");
  return matches(s, re);
}

KeyValue parse_key_value(const std::string& flag, const std::string& text) {
  auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw UsageError("invalid " + flag + " " + dq(text) + ": use KEY=VALUE");
  return {text.substr(0, eq), text.substr(eq + 1)};
}

nlohmann::json parse_toleration(const std::string& text) {
  if (text == "all") return {{"operator", "Exists"}};
  // KEY[=VALUE][:EFFECT][,OPERATOR]: the forms trainctl always took plus Arena's
  // "key=value:effect,operator" (kubeflow/arena pkg/argsbuilder/util.go parseTolerationString).
  static const std::regex re("([^=:,]*)(=([^:,]*))?(:([^,]*))?(,(.*))?");
  std::smatch m;
  const std::string usage =
      ": use KEY[=VALUE][:EFFECT][,OPERATOR] (EFFECT NoSchedule, PreferNoSchedule or NoExecute; OPERATOR Equal "
      "or Exists) or all";
  if (!std::regex_match(text, m, re)) throw UsageError("invalid --toleration " + dq(text) + usage);
  const std::string key = m[1].str(), value = m[3].str(), effect = m[5].str();
  std::string op = m[7].str();
  if (op.empty()) op = m[2].matched ? "Equal" : "Exists";
  if (op != "Equal" && op != "Exists")
    throw UsageError("invalid --toleration " + dq(text) + ": unknown operator " + dq(op) + " (use Equal or Exists)");
  if (!effect.empty() && effect != "NoSchedule" && effect != "PreferNoSchedule" && effect != "NoExecute")
    throw UsageError("invalid --toleration " + dq(text) + ": unknown effect " + dq(effect) +
                     " (use NoSchedule, PreferNoSchedule or NoExecute)");
  // An empty key tolerates every taint: only when the operator Exists is spelled out.
  if ((key.empty() && (op != "Exists" || !m[6].matched)) || (!key.empty() && !is_label_key(key)) ||
      !is_label_value(value))
    throw UsageError("invalid --toleration " + dq(text) + usage);
  // core/v1 validation: "value must be empty when `operator` is 'Exists'".
  if (op == "Exists" && !value.empty())
    throw UsageError("invalid --toleration " + dq(text) + ": the operator Exists takes no value");
  nlohmann::json t = nlohmann::json::object();
  if (!key.empty()) t["key"] = key;
  t["operator"] = op;
  if (op == "Equal") t["value"] = value;
  if (!effect.empty()) t["effect"] = effect;
  return t;
}

DataMount parse_data(const std::string& text) {
  auto colon = text.find(':');
  if (colon == std::string::npos)
    throw UsageError("invalid --data " + dq(text) + ": use PVC_NAME:/mount/path");
  DataMount d{text.substr(0, colon), text.substr(colon + 1)};
  if (!is_dns1123_label(d.pvc))
    throw UsageError("invalid --data " + dq(text) + ": " + dq(d.pvc) +
                     " is not a valid PVC name (lower-case letters, digits and '-', at most 63)");
  if (d.path.empty() || d.path[0] != '/')
    throw UsageError("invalid --data " + dq(text) + ": the mount path must be absolute");
  return d;
}

HostMount parse_data_dir(const std::string& text) {
  auto colon = text.find(':');
  HostMount h{text.substr(0, colon),
              colon == std::string::npos ? text.substr(0, colon) : text.substr(colon + 1)};
  if (h.host.empty() || h.host[0] != '/' || h.path.empty() || h.path[0] != '/')
    throw UsageError("invalid --data-dir " + dq(text) + ": use /host/path[:/mount/path] (absolute paths)");
  return h;
}

std::int64_t parse_seconds(const std::string& flag, const std::string& text) {
  static const std::regex digits("[0-9]+");
  if (matches(text, digits)) {
    try {
      return std::stoll(text);
    } catch (const std::out_of_range&) {
      throw UsageError("invalid " + flag + " " + dq(text) + ": too many seconds");
    }
  }
  try {
    auto ns = parse_duration(text);
    if (ns.count() < 0) throw UsageError("negative");
    return std::chrono::duration_cast<std::chrono::seconds>(ns).count();
  } catch (const UsageError&) {
    throw UsageError("invalid " + flag + " " + dq(text) + ": use a duration such as 90s, 30m or 2h");
  }
}

std::string git_repo_name(const std::string& url) {
  std::string s = url;
  while (!s.empty() && s.back() == '/') s.pop_back();
  auto cut = s.find_last_of("/:");
  if (cut != std::string::npos) s = s.substr(cut + 1);
  if (s.size() > 4 && s.compare(s.size() - 4, 4, ".git") == 0) s.resize(s.size() - 4);
  return s;
}

}  // namespace trainctl::submit
