// Status errors with kube-apiserver's wording, and metav1.Time formatting.
#include "kubesim/store.h"

#include <cstdio>
#include <ctime>

namespace kubesim {

namespace {

std::string qualified(const ResourceType& rt) {
  return rt.group.empty() ? rt.plural : rt.plural + "." + rt.group;
}

json details_for(const ResourceType& rt, const std::string& name) {
  json d = {{"name", name}};
  if (!rt.group.empty()) d["group"] = rt.group;
  d["kind"] = rt.plural;
  return d;
}

}  // namespace

json StatusError::to_status() const {
  json md = json::object();
  if (!list_continue.empty()) md["continue"] = list_continue;
  json s = {{"kind", "Status"},    {"apiVersion", "v1"}, {"metadata", md},
            {"status", "Failure"}, {"message", message}, {"reason", reason}};
  if (!details.empty()) s["details"] = details;
  s["code"] = code;
  return s;
}

StatusError not_found(const ResourceType& rt, const std::string& name) {
  return StatusError(404, "NotFound", qualified(rt) + " \"" + name + "\" not found", details_for(rt, name));
}

StatusError already_exists(const ResourceType& rt, const std::string& name) {
  return StatusError(409, "AlreadyExists", qualified(rt) + " \"" + name + "\" already exists",
                     details_for(rt, name));
}

StatusError conflict(const ResourceType& rt, const std::string& name, const std::string& why) {
  return StatusError(409, "Conflict",
                     "Operation cannot be fulfilled on " + qualified(rt) + " \"" + name + "\": " + why,
                     details_for(rt, name));
}

StatusError too_old_resource_version(uint64_t rv, uint64_t oldest_kept) {
  return StatusError(
      410, "Expired",
      "too old resource version: " + std::to_string(rv) + " (" + std::to_string(oldest_kept - 1) + ")",
      json::object());
}

StatusError continue_expired(const std::string& inconsistent_continue) {
  StatusError e(
      410, "Expired",
      "The provided continue parameter is too old to display a consistent list result. You can start a "
      "new list without the continue parameter, or use the continue token in this response to retrieve "
      "the remainder of the results. Continuing with the provided token results in an inconsistent list "
      "- objects that were created, modified, or deleted between the time the first chunk was returned "
      "and now may show up in the list.",
      json::object());
  e.list_continue = inconsistent_continue;
  return e;
}

const char* event_type_name(EventType t) {
  switch (t) {
    case EventType::Added: return "ADDED";
    case EventType::Modified: return "MODIFIED";
    case EventType::Deleted: return "DELETED";
  }
  return "ERROR";
}

std::string format_rfc3339(std::chrono::system_clock::time_point t) {
  std::time_t tt = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string format_rfc3339_nano(std::chrono::system_clock::time_point t) {
  auto secs = std::chrono::floor<std::chrono::seconds>(t);
  auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(t - secs).count();
  std::time_t tt = std::chrono::system_clock::to_time_t(secs);
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  char frac[16];
  std::snprintf(frac, sizeof frac, ".%09lldZ", static_cast<long long>(ns));
  return std::string(buf) + frac;
}

std::optional<std::chrono::system_clock::time_point> parse_rfc3339(const std::string& s) {
  std::tm tm{};
  int consumed = 0;
  if (std::sscanf(s.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                  &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &consumed) != 6)
    return std::nullopt;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  auto t = std::chrono::system_clock::from_time_t(timegm(&tm));
  size_t i = static_cast<size_t>(consumed);
  if (i < s.size() && s[i] == '.') {
    ++i;
    int64_t nanos = 0;
    int digits = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
      if (digits < 9) {
        nanos = nanos * 10 + (s[i] - '0');
        ++digits;
      }
      ++i;
    }
    while (digits++ < 9) nanos *= 10;
    t += std::chrono::duration_cast<std::chrono::system_clock::duration>(std::chrono::nanoseconds(nanos));
  }
  if (i < s.size() && (s[i] == 'Z' || s[i] == 'z')) return i + 1 == s.size() ? std::optional(t) : std::nullopt;
  if (i + 6 == s.size() && (s[i] == '+' || s[i] == '-')) {
    int hh = 0, mm = 0;
    if (std::sscanf(s.c_str() + i + 1, "%2d:%2d", &hh, &mm) != 2) return std::nullopt;
    auto off = std::chrono::hours(hh) + std::chrono::minutes(mm);
    return s[i] == '+' ? t - off : t + off;
  }
  return std::nullopt;
}

}  // namespace kubesim
