// Object name checks: the messages of apimachinery pkg/util/validation/validation.go
// (IsDNS1123Subdomain, IsDNS1123Label, IsDNS1035Label), each MaxLenError or
// RegexError(msg, fmt, examples...) = msg + " (e.g. 'ex1',  or 'ex2', regex used for validation
// is 'fmt')" (the double space is upstream's: each example ends in ", " and the next starts " or ").
#include "rest_fixture.h"

#include "kubesim/rest.h"

#include <catch2/catch.hpp>

using kubesim::json;
using kubesim::testing::body_json;
using kubesim::testing::kJson;
using kubesim::testing::SimServer;

TEST_CASE("names: DNS-1123 subdomain and label messages as apimachinery words them", "[kubesim][rest]") {
  CHECK(kubesim::check_dns_subdomain("tb-v2.default").empty());
  CHECK(kubesim::check_dns_subdomain("Mnist_DDP") ==
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and "
        "must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
        "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
  CHECK(kubesim::check_dns_subdomain(std::string(254, 'a')) == "must be no more than 253 characters");
  CHECK(kubesim::check_dns_subdomain(std::string(253, 'a')).empty());

  CHECK(kubesim::check_dns_label("ns-1").empty());
  CHECK(
      kubesim::check_dns_label("a.b") ==
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start "
      "and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
      "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')");
  CHECK(kubesim::check_dns_label(std::string(64, 'a')) == "must be no more than 63 characters");
}

TEST_CASE("names: a Service name must be a DNS-1035 label", "[kubesim][rest]") {
  SimServer sim;
  auto c = sim.client();
  auto service = [](const std::string& name) {
    return json{{"metadata", {{"name", name}}}, {"spec", json::object()}}.dump();
  };
  auto r = c->Post("/api/v1/namespaces/default/services", service("1svc"), kJson);
  REQUIRE(r);
  CHECK(r->status == 422);
  CHECK(
      body_json(r)["details"]["causes"][0]["message"] ==
      "Invalid value: \"1svc\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', "
      "start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or "
      "'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')");
  r = c->Post("/api/v1/namespaces/default/services", service(std::string(64, 'a')), kJson);
  REQUIRE(r);
  CHECK(r->status == 422);
  CHECK(body_json(r)["details"]["causes"][0]["message"] ==
        "Invalid value: \"" + std::string(64, 'a') + "\": must be no more than 63 characters");
  r = c->Post("/api/v1/namespaces/default/services", service("tb-1"), kJson);
  REQUIRE(r);
  CHECK(r->status == 201);
}
