// Cluster and user fields of a kubeconfig, and the one-line errors for broken ones.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "core/base64.h"
#include "core/errors.h"
#include "kube/config.h"
#include "kube/kubeconfig_file.h"
#include "support/paths.h"
#include "test_kubeconfig_support.h"

using namespace trainctl;
using namespace trainctl::kube;
using trainctl::kube::test::fixture;
using trainctl::kube::test::load_error;
using trainctl::kube::test::options_with_env;

namespace {

LoadOptions from_file(const std::string& relative, const std::string& context = {}) {
  auto o = options_with_env({});
  o.kubeconfig_path = fixture(relative);
  o.context = context;
  return o;
}


}  // namespace

TEST_CASE("relative certificate-authority, client cert/key and tokenFile resolve against the kubeconfig's directory") {
  RestConfig c = load_rest_config(from_file("relative/config"));
  CHECK(c.server == "https://rel.example:6443");
  CHECK(c.ca_pem == "-----BEGIN CERTIFICATE-----\nfixture-ca-from-file\n-----END CERTIFICATE-----\n");
  CHECK(c.client_cert_pem == "-----BEGIN CERTIFICATE-----\nfixture-client-cert-from-file\n-----END CERTIFICATE-----\n");
  CHECK(c.client_key_pem == "-----BEGIN TEST KEY-----\nfixture-client-key-from-file\n-----END TEST KEY-----\n");
  CHECK(c.bearer_token == "fixture-token-from-file");  // trailing newline of the file dropped
  CHECK(c.token_file == fixture("relative/token.txt"));
  CHECK(c.tls_server_name == "api.rel.internal");
  CHECK(c.proxy_url == "socks5://127.0.0.1:1080");
  CHECK_FALSE(c.insecure_skip_tls_verify);
}

TEST_CASE("a relative reference is read relative to the file, not the working directory") {
  // The same kubeconfig text in another directory, without certs/ beside it.
  std::string dir = trainctl::testing::make_temp_dir("kubeconfig-rel");
  test::write_text(dir + "/config", test::read_text(fixture("relative/config")));
  auto o = options_with_env({});
  o.kubeconfig_path = dir + "/config";
  std::string message = load_error(o);
  CHECK(message == "kubeconfig " + dir + "/config: cluster \"rel-cluster\": cannot read certificate-authority " + dir +
                       "/certs/ca.pem: No such file or directory");
}

TEST_CASE("*-data fields are base64-decoded, line breaks and padding included") {
  RestConfig c = load_rest_config(from_file("data/config"));
  // Expected values are the inputs given to `base64` when the fixture was written.
  CHECK(c.ca_pem == "-----BEGIN CERTIFICATE-----\nfixture-ca-data\n-----END CERTIFICATE-----\n");
  CHECK(c.client_cert_pem == "client-crt-22");
  CHECK(c.client_key_pem == "client-key-3333");
  CHECK(c.server == "https://data.example:6443");
  CHECK(c.namespace_ == "default");
}

TEST_CASE("base64_decode handles every padding length and rejects bad input") {
  using trainctl::base64_decode;
  CHECK(base64_decode("Y2EtcGVtLTE=") == std::optional<std::string>("ca-pem-1"));
  CHECK(base64_decode("Y2xpZW50LWNydC0yMg==") == std::optional<std::string>("client-crt-22"));
  CHECK(base64_decode("Y2xpZW50LWtleS0zMzMz") == std::optional<std::string>("client-key-3333"));
  CHECK(base64_decode("AAE=") == std::optional<std::string>(std::string("\0\1", 2)));
  CHECK(base64_decode("") == std::optional<std::string>(""));
  CHECK_FALSE(base64_decode("Y2EtcGVtLTE"));   // missing padding
  CHECK_FALSE(base64_decode("Y2=tcGVt"));      // '=' inside
  CHECK_FALSE(base64_decode("not*base64!"));
  CHECK(trainctl::base64_encode("client-crt-22") == "Y2xpZW50LWNydC0yMg==");
}

TEST_CASE("invalid base64 names the cluster and the field, whichever context is used (as kubectl)") {
  std::string path = fixture("broken/bad-base64.yaml");
  for (const char* context : {"bad-data", "good"})
    CHECK(load_error(from_file("broken/bad-base64.yaml", context)) ==
          "kubeconfig " + path + ": cluster \"bad-data-cluster\": certificate-authority-data is not valid base64");
}

TEST_CASE("a token wins over tokenFile; insecure-skip-tls-verify; servers without a scheme") {
  RestConfig c = load_rest_config(from_file("data/config", "insecure"));
  CHECK(c.bearer_token == "inline-token-value");
  CHECK(c.insecure_skip_tls_verify);
  CHECK(c.server == "http://insecure.example:6443");  // kubectl too uses http without a scheme
  CHECK(c.namespace_ == "sec");
  RestConfig plain = load_rest_config(from_file("data/config", "plain"));
  CHECK(plain.server == "http://plain.example:8080");
}

TEST_CASE("a client key without a certificate is rejected") {
  CHECK(load_error(from_file("data/config", "key-only")) ==
        "kubeconfig " + fixture("data/config") +
            ": user \"key-only-user\" has a client key but no client-certificate or client-certificate-data");
}

TEST_CASE("missing fields give one line naming the file and the entry") {
  std::string path = fixture("broken/missing-fields.yaml");
  CHECK(load_error(from_file("broken/missing-fields.yaml")) ==
        "kubeconfig " + path + ": context \"no-cluster\" has no cluster");
  CHECK(load_error(from_file("broken/missing-fields.yaml", "unknown-cluster")) ==
        "kubeconfig " + path + ": context \"unknown-cluster\" refers to unknown cluster \"c1\"");
  CHECK(load_error(from_file("broken/missing-fields.yaml", "unknown-user")) ==
        "kubeconfig " + path + ": context \"unknown-user\" refers to unknown user \"ghost\"");
  CHECK(load_error(from_file("broken/missing-fields.yaml", "serverless")) ==
        "kubeconfig " + path + ": cluster \"no-server\" has no server");
}

TEST_CASE("malformed YAML names the file and the line") {
  std::string path = fixture("broken/malformed.yaml");
  // Line 3 is "  current-context: ...", indented under a scalar.
  CHECK(load_error(from_file("broken/malformed.yaml")) ==
        "kubeconfig " + path + ": invalid YAML at line 3: illegal map value");
  CHECK_THROWS_AS(resolve_namespace(from_file("broken/malformed.yaml")), ConfigError);

  std::string shape = fixture("broken/wrong-shape.yaml");
  CHECK(load_error(from_file("broken/wrong-shape.yaml")) == "kubeconfig " + shape + ": \"clusters\" must be a list");
}

TEST_CASE("fields hold what their YAML scalars resolve to, as client-go reads them") {
  // sigs.k8s.io/yaml: yes is true, 0x10 is 16 and 017 is 15; quoted they are text. The old
  // reader took every scalar's text, so "namespace: 0x10" was the namespace "0x10" where
  // kubectl refuses the file, and the exec extension held the string "0x10".
  RestConfig c = load_rest_config(from_file("typed/yaml-words.yaml"));
  CHECK(c.insecure_skip_tls_verify);
  CHECK(c.namespace_ == "0x10");
  CHECK(c.bearer_token == "123");
  REQUIRE(c.exec == std::nullopt);
  const std::string words = fixture("typed/yaml-words.yaml");
  CHECK(nlohmann::json::parse(
            kube::detail::parse_kubeconfig_file(words).clusters.at("words").exec_extension_json) ==
        nlohmann::json{{"mask", 16}, {"octal", 15}, {"sep", 1000}, {"flag", true}, {"text", "0x10"}});
  const std::string number = fixture("broken/number-namespace.yaml");
  CHECK(load_error(from_file("broken/number-namespace.yaml")) ==
        "kubeconfig " + number + ": context \"c\" field \"namespace\" must be a string");
  const std::string string_bool = fixture("broken/string-bool.yaml");
  CHECK(load_error(from_file("broken/string-bool.yaml")) ==
        "kubeconfig " + string_bool +
            ": cluster \"c\" field \"insecure-skip-tls-verify\" must be true or false");
}

TEST_CASE("an unreadable or empty kubeconfig is reported") {
  auto dir = options_with_env({});
  dir.kubeconfig_path = fixture("relative/certs");
  CHECK(load_error(dir) == "kubeconfig " + dir.kubeconfig_path + ": cannot read: Is a directory");

  std::string empty = fixture("broken/empty.yaml");
  CHECK(load_error(from_file("broken/empty.yaml")) ==
        "kubeconfig " + empty + ": defines no contexts, clusters or users");
  CHECK(resolve_namespace(from_file("broken/empty.yaml")) == "default");
}

TEST_CASE("kubeconfig errors are one line") {
  for (const char* f : {"broken/malformed.yaml", "broken/wrong-shape.yaml", "broken/missing-fields.yaml"}) {
    std::string message = load_error(from_file(f));
    CHECK(message.find('\n') == std::string::npos);
    CHECK(message.rfind("kubeconfig ", 0) == 0);
  }
}
