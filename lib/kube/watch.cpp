#include "kube/watch.h"

namespace trainctl::kube {

using nlohmann::json;

std::optional<WatchEvent> parse_watch_event(std::string_view line) {
  if (line.empty()) return std::nullopt;
  json ev = json::parse(line.begin(), line.end(), nullptr, false);
  if (ev.is_discarded()) return std::nullopt;
  // JSON of another shape throws json::type_error, as the decoder fails on it.
  WatchEvent out;
  out.type = ev.at("type").get<std::string>();
  auto obj = ev.find("object");
  if (obj != ev.end()) out.object = std::move(*obj);
  if (out.object.is_object()) {
    auto md = out.object.find("metadata");
    if (md != out.object.end()) {
      auto rv = md->find("resourceVersion");
      if (rv != md->end()) out.resource_version = rv->get<std::string>();
    }
  }
  return out;
}

ApiError watch_error(const json& status) {
  if (status.is_object() && status.value("kind", "") == "Status" && status.value("status", "") != "Success") {
    const json& code = status.contains("code") ? status["code"] : json();
    const int http = code.is_number_integer() ? code.get<int>() : 500;
    std::string reason = status.value("reason", "");
    std::string message = status.value("message", "");
    if (message.empty())
      message = "the watch ended with an error (" + (reason.empty() ? "no reason" : reason) + ")";
    return ApiError(http, reason, message);
  }
  return ApiError(
      500, "InternalError",
      "the watch ended with an error event that is not a Status: " + status.dump().substr(0, 200));
}

bool is_expired(const ApiError& e) {
  return e.http_status() == 410 && (e.reason() == "Expired" || e.reason() == "Gone");
}

}  // namespace trainctl::kube
