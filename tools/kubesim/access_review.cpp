#include "kubesim/access_review.h"

#include "kubesim/rest.h"
#include "object/fields.h"

namespace kubesim {

bool is_self_subject_access_review(const std::string& path) {
  std::string p = path;
  if (p.size() > 1 && p.back() == '/') p.pop_back();
  return p == "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews";
}

void serve_self_subject_access_review(const Store& store, const UserInfo& user, const httplib::Request& req,
                                      httplib::Response& res) {
  if (req.method != "POST") throw method_not_allowed();
  json review = parse_body(req.body, req.get_header_value("Content-Type"));
  if (!review.is_object()) throw bad_request("the body is not a SelfSubjectAccessReview object");
  const json spec = review.value("spec", json::object());
  const bool has_resource = spec.is_object() && spec.contains("resourceAttributes") &&
                            spec["resourceAttributes"].is_object();
  const bool has_non_resource = spec.is_object() && spec.contains("nonResourceAttributes") &&
                                spec["nonResourceAttributes"].is_object();
  if (has_resource == has_non_resource) {
    const std::string field = has_resource ? "spec.nonResourceAttributes" : "spec.resourceAttributes";
    const std::string message = has_resource ? "cannot be specified in combination with resourceAttributes"
                                             : "exactly one of nonResourceAttributes or resourceAttributes must be "
                                               "specified";
    json cause = {{"reason", "FieldValueInvalid"}, {"message", "Invalid value: \"null\": " + message}, {"field", field}};
    throw StatusError(422, "Invalid",
                      "SelfSubjectAccessReview.authorization.k8s.io \"\" is invalid: " + field + ": Invalid value: "
                      "\"null\": " + message,
                      {{"group", "authorization.k8s.io"}, {"kind", "SelfSubjectAccessReview"}, {"causes", json::array({cause})}});
  }
  using trainctl::object::str;
  AuthAttributes a;
  if (has_resource) {
    const json& r = spec["resourceAttributes"];
    a.verb = str(r, "verb");
    a.group = str(r, "group");
    a.resource = str(r, "resource");
    a.subresource = str(r, "subresource");
    a.name = str(r, "name");
    a.namespace_ = str(r, "namespace");
  } else {
    a.resource_request = false;
    a.verb = str(spec["nonResourceAttributes"], "verb");
    a.path = str(spec["nonResourceAttributes"], "path");
  }
  const AuthDecision d = authorize(store, user, a);
  json status = {{"allowed", d.allowed}};
  if (!d.reason.empty()) status["reason"] = d.reason;
  json out = {{"kind", "SelfSubjectAccessReview"},
              {"apiVersion", "authorization.k8s.io/v1"},
              {"metadata", {{"creationTimestamp", nullptr}}},
              {"spec", spec},
              {"status", status}};
  send_json(res, 201, out.dump());
}

}  // namespace kubesim
