// kube-apiserver's static token file (--token-auth-file, "Static token file" in the
// Kubernetes authentication reference; k8s.io/apiserver
// plugin/pkg/authenticator/token/tokenfile/tokenfile.go): CSV lines
//   token,user,uid[,"group1,group2"]
// with at least three columns; the groups, split at commas, come with system:authenticated,
// which every authenticated user gets. kubesim reads the same file with --token-auth-file.
#pragma once

#include <string>
#include <vector>

#include "kubesim/rbac.h"

namespace kubesim {

// Throws std::runtime_error naming the file and line of a malformed record.
std::vector<TokenUser> parse_token_auth_file(const std::string& text, const std::string& file);
std::vector<TokenUser> load_token_auth_file(const std::string& path);

}  // namespace kubesim
