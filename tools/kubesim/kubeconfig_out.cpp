#include "kubesim/kubeconfig_out.h"

#include "core/base64.h"
#include "yaml/write.h"

namespace kubesim {

std::string render_kubeconfig(const KubeconfigParams& p) {
  using trainctl::base64_encode;
  using Json = nlohmann::ordered_json;
  Json cluster = {{"server", p.server_url}};
  if (!p.ca_pem.empty()) cluster["certificate-authority-data"] = base64_encode(p.ca_pem);
  Json users = Json::array();
  if (!p.token.empty()) users.push_back({{"name", "kubesim-admin"}, {"user", {{"token", p.token}}}});
  if (!p.client.cert_pem.empty()) {
    users.push_back({{"name", "kubesim-cert"},
                     {"user",
                      {{"client-certificate-data", base64_encode(p.client.cert_pem)},
                       {"client-key-data", base64_encode(p.client.key_pem)}}}});
  }
  Json contexts = Json::array();
  auto context = [&](const std::string& name, const std::string& user) {
    contexts.push_back(
        {{"name", name},
         {"context", {{"cluster", "kubesim"}, {"user", user}, {"namespace", p.namespace_name}}}});
  };
  if (!p.token.empty()) context("kubesim", "kubesim-admin");
  if (!p.client.cert_pem.empty()) context("kubesim-cert", "kubesim-cert");
  if (p.token.empty() && p.client.cert_pem.empty()) context("kubesim", "kubesim-anonymous");
  Json config = {
      {"apiVersion", "v1"},
      {"kind", "Config"},
      {"clusters", Json::array({{{"name", "kubesim"}, {"cluster", cluster}}})},
      {"users", users},
      {"contexts", contexts},
      {"current-context", !p.token.empty() || p.client.cert_pem.empty() ? "kubesim" : "kubesim-cert"}};
  return trainctl::yaml::to_yaml(config);
}

void write_kubeconfig(const std::string& path, const KubeconfigParams& p) {
  write_private_file(path, render_kubeconfig(p));
}

}  // namespace kubesim
