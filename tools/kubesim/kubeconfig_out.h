// Writes a kubeconfig for a running kubesim: the CA, the server URL, a user with a bearer
// token (context "kubesim") and a user with a client certificate (context "kubesim-cert").
#pragma once

#include "kubesim/certs.h"

#include <string>

namespace kubesim {

struct KubeconfigParams {
  std::string server_url;
  std::string ca_pem;       // empty for plain HTTP
  std::string token;        // empty: no token user
  CertKey client;           // empty: no certificate user
  std::string client_user = "kubesim-admin";
  std::string namespace_name = "default";
};

std::string render_kubeconfig(const KubeconfigParams& p);
// Writes render_kubeconfig(p) to path with mode 0600.
void write_kubeconfig(const std::string& path, const KubeconfigParams& p);

}  // namespace kubesim
