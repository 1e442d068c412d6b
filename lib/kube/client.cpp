#include "kube/client.h"

#include "core/errors.h"
#include "kube/status_error.h"

namespace trainctl::kube {

namespace {
// A 2xx body that should be JSON; anything else (a proxy's HTML page) is an Error that
// names the request and shows a short excerpt.
nlohmann::json parse_body(const Request& r, const Response& resp) {
  nlohmann::json j = nlohmann::json::parse(resp.body, nullptr, false);
  if (j.is_discarded()) {
    throw Error("the server answered " + r.method + " " + r.path + " with HTTP " + std::to_string(resp.status) +
                " but the body is not JSON: \"" + sanitised_excerpt(resp.body) + "\"");
  }
  return j;
}
}  // namespace

nlohmann::json Client::get_json(const std::string& path) { return send_json("GET", path, nlohmann::json()); }

nlohmann::json Client::post_json(const std::string& path, const nlohmann::json& body) {
  return send_json("POST", path, body);
}

nlohmann::json Client::patch_json(const std::string& path, const nlohmann::json& body,
                                  const std::string& content_type) {
  return send_json("PATCH", path, body, content_type);
}

nlohmann::json Client::delete_json(const std::string& path, const nlohmann::json& body) {
  return send_json("DELETE", path, body);
}

nlohmann::json Client::send_json(const std::string& method, const std::string& path, const nlohmann::json& body,
                                 const std::string& content_type) {
  Request r;
  r.method = method;
  r.path = path;
  if (!body.is_null()) r.body = body.dump();
  if (!content_type.empty()) r.content_type = content_type;
  const Response resp = send(r);
  // A DELETE may answer with no body at all.
  return method == "DELETE" && resp.body.empty() ? nlohmann::json() : parse_body(r, resp);
}

}  // namespace trainctl::kube
