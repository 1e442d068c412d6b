#include "kubesim/kubeconfig_out.h"

#include <yaml-cpp/yaml.h>

#include "core/base64.h"

namespace kubesim {

std::string render_kubeconfig(const KubeconfigParams& p) {
  using trainctl::base64_encode;
  YAML::Emitter e;
  e << YAML::BeginMap;
  e << YAML::Key << "apiVersion" << YAML::Value << "v1";
  e << YAML::Key << "kind" << YAML::Value << "Config";
  e << YAML::Key << "clusters" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
  e << YAML::Key << "name" << YAML::Value << "kubesim";
  e << YAML::Key << "cluster" << YAML::Value << YAML::BeginMap;
  e << YAML::Key << "server" << YAML::Value << p.server_url;
  if (!p.ca_pem.empty()) e << YAML::Key << "certificate-authority-data" << YAML::Value << base64_encode(p.ca_pem);
  e << YAML::EndMap << YAML::EndMap << YAML::EndSeq;

  e << YAML::Key << "users" << YAML::Value << YAML::BeginSeq;
  if (!p.token.empty()) {
    e << YAML::BeginMap << YAML::Key << "name" << YAML::Value << "kubesim-admin";
    e << YAML::Key << "user" << YAML::Value << YAML::BeginMap << YAML::Key << "token" << YAML::Value << p.token
      << YAML::EndMap << YAML::EndMap;
  }
  if (!p.client.cert_pem.empty()) {
    e << YAML::BeginMap << YAML::Key << "name" << YAML::Value << "kubesim-cert";
    e << YAML::Key << "user" << YAML::Value << YAML::BeginMap;
    e << YAML::Key << "client-certificate-data" << YAML::Value << base64_encode(p.client.cert_pem);
    e << YAML::Key << "client-key-data" << YAML::Value << base64_encode(p.client.key_pem);
    e << YAML::EndMap << YAML::EndMap;
  }
  e << YAML::EndSeq;

  e << YAML::Key << "contexts" << YAML::Value << YAML::BeginSeq;
  auto context = [&](const std::string& name, const std::string& user) {
    e << YAML::BeginMap << YAML::Key << "name" << YAML::Value << name;
    e << YAML::Key << "context" << YAML::Value << YAML::BeginMap;
    e << YAML::Key << "cluster" << YAML::Value << "kubesim";
    e << YAML::Key << "user" << YAML::Value << user;
    e << YAML::Key << "namespace" << YAML::Value << p.namespace_name;
    e << YAML::EndMap << YAML::EndMap;
  };
  if (!p.token.empty()) context("kubesim", "kubesim-admin");
  if (!p.client.cert_pem.empty()) context("kubesim-cert", "kubesim-cert");
  if (p.token.empty() && p.client.cert_pem.empty()) context("kubesim", "kubesim-anonymous");
  e << YAML::EndSeq;
  e << YAML::Key << "current-context" << YAML::Value
    << (!p.token.empty() || p.client.cert_pem.empty() ? "kubesim" : "kubesim-cert");
  e << YAML::EndMap;
  return std::string(e.c_str()) + "\n";
}

void write_kubeconfig(const std::string& path, const KubeconfigParams& p) {
  write_private_file(path, render_kubeconfig(p));
}

}  // namespace kubesim
