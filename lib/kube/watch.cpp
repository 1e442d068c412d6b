#include "kube/watch.h"

#include <algorithm>
#include <array>

#include "kube/answer_shape.h"

namespace trainctl::kube {

using nlohmann::json;

std::optional<WatchEvent> parse_watch_event(std::string_view line) {
  if (line.empty()) return std::nullopt;
  json ev = json::parse(line.begin(), line.end(), nullptr, false);
  if (ev.is_discarded()) return std::nullopt;
  // As client-go's decoder (rest/watch/decoder.go Decode): an event of another type, or
  // whose object is not an object, is an error.
  const auto type = ev.is_object() ? ev.find("type") : ev.end();
  static const std::array<std::string_view, 5> types = {"ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR"};
  if (type == ev.end() || !type->is_string() ||
      std::find(types.begin(), types.end(), type->get<std::string>()) == types.end())
    throw Error("the server sent a watch event of an unexpected shape (" + describe_answer(ev) +
                (type != ev.end() && type->is_string()
                     ? " of type \"" + type->get<std::string>().substr(0, 40) + "\""
                     : "") +
                ")");
  WatchEvent out;
  out.type = type->get<std::string>();
  auto obj = ev.find("object");
  if (obj != ev.end()) out.object = std::move(*obj);
  if (!out.object.is_object())
    throw Error("the server sent a " + out.type + " watch event of an unexpected shape (its object is " +
                describe_answer(out.object) + ")");
  auto md = out.object.find("metadata");
  if (md != out.object.end() && md->is_object()) {
    auto rv = md->find("resourceVersion");
    if (rv != md->end()) {
      if (!rv->is_string())
        throw Error("the server sent a " + out.type +
                    " watch event of an unexpected shape (its resourceVersion is not a string)");
      out.resource_version = rv->get<std::string>();
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
