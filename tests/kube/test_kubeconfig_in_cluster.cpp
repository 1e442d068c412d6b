// The pod service-account fallback, read the way client-go's InClusterConfig reads it.
#include <catch2/catch.hpp>

#include "core/errors.h"
#include "core/log.h"
#include "kube/config.h"
#include "support/paths.h"
#include "test_kubeconfig_support.h"

using namespace trainctl;
using namespace trainctl::kube;
using trainctl::kube::test::fixture;
using trainctl::kube::test::options_with_env;

namespace {

LoadOptions in_cluster(std::map<std::string, std::string> env) {
  // A HOME without .kube/config, so that nothing but the service account is there.
  env.emplace("HOME", trainctl::testing::make_temp_dir("in-cluster-home"));
  LoadOptions o = options_with_env(std::move(env));
  o.service_account_dir = fixture("serviceaccount");
  return o;
}

}  // namespace

TEST_CASE("in-cluster config from the service account and KUBERNETES_SERVICE_HOST/PORT") {
  auto o = in_cluster({{"KUBERNETES_SERVICE_HOST", "10.96.0.1"}, {"KUBERNETES_SERVICE_PORT", "443"}});
  RestConfig c = load_rest_config(o);
  CHECK(c.server == "https://10.96.0.1:443");
  CHECK(c.bearer_token == "sa-token-fixture-value");
  CHECK(c.token_file == fixture("serviceaccount") + "/token");
  CHECK(c.ca_pem == "-----BEGIN CERTIFICATE-----\nfixture-in-cluster-ca\n-----END CERTIFICATE-----\n");
  CHECK(c.namespace_ == "ml-team");
  CHECK(c.source == "in-cluster");
  CHECK(c.context_name.empty());
  CHECK(resolve_namespace(o) == "ml-team");
  CHECK(log::redact("token sa-token-fixture-value") == "token <redacted>");

  SECTION("-n wins over the namespace file") {
    o.namespace_ = "other";
    CHECK(load_rest_config(o).namespace_ == "other");
    CHECK(resolve_namespace(o) == "other");
  }
}

TEST_CASE("in-cluster: POD_NAMESPACE before the namespace file; IPv6 hosts get brackets") {
  auto o = in_cluster({{"KUBERNETES_SERVICE_HOST", "fd00::1"}, {"KUBERNETES_SERVICE_PORT", "6443"},
                       {"POD_NAMESPACE", "from-downward-api"}});
  RestConfig c = load_rest_config(o);
  CHECK(c.server == "https://[fd00::1]:6443");
  CHECK(c.namespace_ == "from-downward-api");
}

TEST_CASE("in-cluster is not used without both variables, nor when a kubeconfig exists") {
  auto no_port = in_cluster({{"KUBERNETES_SERVICE_HOST", "10.96.0.1"}});
  CHECK_THROWS_WITH(load_rest_config(no_port),
                    "no kubeconfig found: set --kubeconfig or KUBECONFIG, or create ~/.kube/config");
  CHECK(resolve_namespace(no_port) == "default");

  auto both = in_cluster({{"KUBERNETES_SERVICE_HOST", "10.96.0.1"}, {"KUBERNETES_SERVICE_PORT", "443"},
                          {"KUBECONFIG", fixture("merge/first.yaml")}});
  CHECK(load_rest_config(both).server == "https://first.example:6443");
}
