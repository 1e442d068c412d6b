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

nlohmann::json Client::get_json(const std::string& path) {
  Request r;
  r.path = path;
  return parse_body(r, send(r));
}

nlohmann::json Client::post_json(const std::string& path, const nlohmann::json& body) {
  Request r;
  r.method = "POST";
  r.path = path;
  r.body = body.dump();
  return parse_body(r, send(r));
}

nlohmann::json Client::patch_json(const std::string& path, const nlohmann::json& body,
                                  const std::string& content_type) {
  Request r;
  r.method = "PATCH";
  r.path = path;
  r.body = body.dump();
  r.content_type = content_type;
  return parse_body(r, send(r));
}

nlohmann::json Client::delete_json(const std::string& path, const nlohmann::json& body) {
  Request r;
  r.method = "DELETE";
  r.path = path;
  if (!body.is_null()) r.body = body.dump();
  auto resp = send(r);
  return resp.body.empty() ? nlohmann::json() : parse_body(r, resp);
}

}  // namespace trainctl::kube
