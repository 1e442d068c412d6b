// Per-request pipeline: authentication (bearer token, client certificate), authorization
// (system:masters may do anything; other users may only read), fault injection, the admin
// endpoint /kubesim/faults, and dispatch to discovery or the REST API.
#pragma once

#include "kubesim/rest.h"

#include <optional>
#include <string>
#include <vector>

namespace kubesim {

struct UserInfo {
  std::string name;
  std::vector<std::string> groups;
};

// nullopt when the request carries no valid credentials.
std::optional<UserInfo> authenticate(const httplib::Request& req, const ServerOptions& opts);

// The kube-apiserver verb of a request ("get", "list", "watch", "create", ...).
std::string request_verb(const httplib::Request& req, const ApiPath& path);

void dispatch(Server& server, Api& api, const ServerOptions& opts, const httplib::Request& req,
              httplib::Response& res);

}  // namespace kubesim
