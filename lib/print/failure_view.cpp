#include "print/failure_view.h"

#include "print/escape.h"

namespace trainctl::print {

std::string failure_text(const jobs::Failure& f) {
  std::string s = "Failed:";
  if (!f.replica.empty()) s += " " + sanitize(f.replica);
  if (f.exit_code) s += " exited " + std::to_string(*f.exit_code);
  if (!f.reason.empty())
    s += f.replica.empty() && !f.exit_code ? " " + sanitize(f.reason) : " (" + sanitize(f.reason) + ")";
  if (f.restarts > 0)
    s += " after " + std::to_string(f.restarts) + (f.restarts == 1 ? " restart" : " restarts");
  if (!f.finished_at.empty()) s += " at " + sanitize(f.finished_at);
  s += '\n';
  if (!f.message.empty()) s += "  " + sanitize(f.message) + '\n';
  if (!f.log_tail.empty()) {
    s += "  Last " + std::to_string(f.log_tail.size()) + " lines of " + sanitize(f.pod) + "/" +
         sanitize(f.container) + (f.previous ? " (before its restart)" : "") + ":\n";
    for (const auto& l : f.log_tail) s += "    " + sanitize(l) + '\n';
  }
  return s;
}

nlohmann::ordered_json failure_json(const jobs::Failure& f) {
  using nlohmann::ordered_json;
  auto or_null = [](const std::string& v) { return v.empty() ? ordered_json() : ordered_json(sanitize(v)); };
  ordered_json tail = ordered_json::array();
  for (const auto& l : f.log_tail) tail.push_back(sanitize(l));
  ordered_json j;
  j["replica"] = or_null(f.replica);
  j["pod"] = or_null(f.pod);
  j["container"] = or_null(f.container);
  j["exitCode"] = f.exit_code ? ordered_json(*f.exit_code) : ordered_json();
  j["reason"] = sanitize(f.reason);
  j["message"] = sanitize(f.message);
  j["restarts"] = f.restarts;
  j["finishedAt"] = or_null(f.finished_at);
  j["logTail"] = tail;
  return j;
}

}  // namespace trainctl::print
