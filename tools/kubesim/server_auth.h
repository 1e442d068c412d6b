// Per-request pipeline: authentication (bearer token, client certificate), authorization
// (rbac.h: system:masters may do anything, other users what RBAC grants them), fault
// injection, the admin endpoint /kubesim/faults, and dispatch to discovery, the
// SelfSubjectAccessReviews or the REST API.
#pragma once

#include "kubesim/rbac.h"
#include "kubesim/rest.h"

#include <optional>
#include <string>
#include <vector>

namespace kubesim {

// nullopt when the request carries no valid credentials.
std::optional<UserInfo> authenticate(const httplib::Request& req, const ServerOptions& opts);

// The kube-apiserver verb of a request ("get", "list", "watch", "create", ...).
std::string request_verb(const httplib::Request& req, const ApiPath& path);
// The authorization attributes of a resource request (k8s.io/apiserver
// pkg/endpoints/request/requestinfo.go: a namespace object's namespace is its name).
AuthAttributes request_attributes(const httplib::Request& req, const ApiPath& path);

void dispatch(Server& server, Api& api, const ServerOptions& opts, const httplib::Request& req,
              httplib::Response& res);

}  // namespace kubesim
