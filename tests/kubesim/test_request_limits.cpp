// The sizes kube-apiserver refuses and the bodies it cannot read, answered as it answers them:
// a body over MaxRequestBodyBytes (3 MiB) is 413 RequestEntityTooLarge whether it came with a
// Content-Length or chunked (handlers/rest.go limitedReadBody); a ConfigMap over 1 MiB of data
// or annotations over 256 KiB are 422; an object etcd cannot store is 500 "etcdserver: request
// is too large"; bytes that are not UTF-8 inside a JSON string read as U+FFFD (Go's
// encoding/json), anywhere else they are the JSON decoder's 400.
#include <catch2/catch.hpp>

#include "rest_fixture.h"

using namespace kubesim;
using namespace kubesim::testing;

namespace {

constexpr size_t kMaxRequestBodyBytes = 3 * 1024 * 1024;  // apiserver pkg/server/config.go

json configmap_with_value(const std::string& name, const std::string& value) {
  return {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", name}}}, {"data", {{"v", value}}}};
}

// POSTs `body` chunked (no Content-Length), in 64 KiB pieces.
httplib::Result post_chunked(httplib::SSLClient& c, const std::string& path, const std::string& body) {
  return c.Post(
      path,
      [&body](size_t offset, httplib::DataSink& sink) {
        if (offset >= body.size()) {
          sink.done();
          return true;
        }
        const size_t n = std::min<size_t>(64 * 1024, body.size() - offset);
        return sink.write(body.data() + offset, n);
      },
      kJson);
}

void check_too_large(const httplib::Result& r) {
  REQUIRE(r);
  CHECK(r->status == 413);
  json st = body_json(r);
  CHECK(st["reason"] == "RequestEntityTooLarge");
  CHECK(st["message"] == "Request entity too large: limit is 3145728");
  CHECK(st["code"] == 413);
}

}  // namespace

TEST_CASE("a body over 3 MiB is 413 RequestEntityTooLarge, chunked or not, and nothing is stored",
          "[kubesim][limits]") {
  SimServer sim;
  auto c = sim.client();
  c->set_read_timeout(60, 0);
  const std::string big = configmap_with_value("big", std::string(20 * 1024 * 1024, 'x')).dump();
  check_too_large(c->Post("/api/v1/namespaces/default/configmaps", big, kJson));
  check_too_large(post_chunked(*c, "/api/v1/namespaces/default/configmaps", big));
  const std::string huge = configmap_with_value("huge", std::string(70 * 1024 * 1024, 'x')).dump();
  check_too_large(post_chunked(*c, "/api/v1/namespaces/default/configmaps", huge));
  // Updates and patches too.
  check_too_large(post_chunked(*c, "/api/v1/namespaces/default/configmaps", big));
  check_too_large(c->Put("/api/v1/namespaces/default/configmaps/big", big, kJson));
  check_too_large(c->Patch("/api/v1/namespaces/default/configmaps/big", big, "application/merge-patch+json"));
  CHECK(c->Get("/api/v1/namespaces/default/configmaps/big")->status == 404);
  CHECK(c->Get("/api/v1/namespaces/default/configmaps/huge")->status == 404);
  // The connection goes on serving.
  CHECK(c->Get("/api/v1/namespaces/default/configmaps")->status == 200);
}

TEST_CASE("a body of exactly 3 MiB is read; one byte more is not", "[kubesim][limits]") {
  SimServer sim;
  auto c = sim.client();
  std::string body = configmap_with_value("edge", "v").dump();
  body += std::string(kMaxRequestBodyBytes - body.size(), ' ');  // JSON white space
  auto r = post_chunked(*c, "/api/v1/namespaces/default/configmaps", body);
  REQUIRE(r);
  CHECK(r->status == 201);
  body = configmap_with_value("edge2", "v").dump();
  body += std::string(kMaxRequestBodyBytes + 1 - body.size(), ' ');
  check_too_large(post_chunked(*c, "/api/v1/namespaces/default/configmaps", body));
  check_too_large(c->Post("/api/v1/namespaces/default/configmaps", body, kJson));
}

TEST_CASE("objects kube-apiserver will not store: 422 for ConfigMap data and annotations, 500 from etcd",
          "[kubesim][limits]") {
  SimServer sim;
  auto c = sim.client();
  // 2 MB of data: under the body limit, over ValidateConfigMap's 1 MiB.
  auto r = c->Post("/api/v1/namespaces/default/configmaps", configmap_with_value("two", std::string(2'000'000, 'x')).dump(), kJson);
  REQUIRE(r);
  CHECK(r->status == 422);
  json st = body_json(r);
  CHECK(st["reason"] == "Invalid");
  CHECK(st["message"] == "ConfigMap \"two\" is invalid: []: Too long: may not be more than 1048576 bytes");
  CHECK(st["details"]["causes"][0]["field"] == "[]");
  CHECK(st["details"]["causes"][0]["reason"] == "FieldValueTooLong");
  // Exactly 1 MiB is allowed.
  r = c->Post("/api/v1/namespaces/default/configmaps", configmap_with_value("one", std::string(1024 * 1024, 'x')).dump(), kJson);
  REQUIRE(r);
  CHECK(r->status == 201);

  json pod = {{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata", {{"name", "p"}, {"annotations", {{"a", std::string(300 * 1024, 'x')}}}}},
              {"spec", {{"containers", {{{"name", "c"}, {"image", "busybox"}}}}}}};
  r = c->Post("/api/v1/namespaces/default/pods", pod.dump(), kJson);
  REQUIRE(r);
  CHECK(r->status == 422);
  CHECK(body_json(r)["message"] == "Pod \"p\" is invalid: metadata.annotations: Too long: may not be more than 262144 bytes");

  // 2 MB in a container's environment: valid, but more than etcd takes (1.5 MiB).
  pod["metadata"].erase("annotations");
  pod["spec"]["containers"][0]["env"] = {{{"name", "BIG"}, {"value", std::string(2'000'000, 'x')}}};
  r = c->Post("/api/v1/namespaces/default/pods", pod.dump(), kJson);
  REQUIRE(r);
  CHECK(r->status == 500);
  st = body_json(r);
  CHECK(st["message"] == "etcdserver: request is too large");
  CHECK_FALSE(st.contains("reason"));  // StatusReasonUnknown
  CHECK(c->Get("/api/v1/namespaces/default/pods/p")->status == 404);
}

TEST_CASE("bytes that are not UTF-8: U+FFFD inside a string, the JSON decoder's 400 elsewhere", "[kubesim][limits]") {
  SimServer sim;
  auto c = sim.client();
  auto r = c->Post("/api/v1/namespaces/default/configmaps",
                   R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"u"},"data":{"v":"a)"
                   "\xff\xc3("
                   R"(b"}})",
                   kJson);
  REQUIRE(r);
  CHECK(r->status == 201);
  CHECK(body_json(c->Get("/api/v1/namespaces/default/configmaps/u"))["data"]["v"] == "a\uFFFD\uFFFD(b");

  r = c->Post("/api/v1/namespaces/default/configmaps", "\xff{}", kJson);
  REQUIRE(r);
  CHECK(r->status == 400);
  json st = json::parse(r->body);  // valid UTF-8 JSON, as Go writes it
  CHECK(st["reason"] == "BadRequest");
  CHECK(st["message"] ==
        "the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse "
        "error: invalid character '\u00ff' looking for beginning of value (ff7b7d)");

  r = c->Post("/api/v1/namespaces/default/configmaps", R"({"apiVersion":"v1",)", kJson);
  REQUIRE(r);
  CHECK(r->status == 400);
  CHECK(body_json(r)["message"] ==
        "the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse "
        "error: unexpected end of JSON input ({\"apiVersion\":\"v1\",)");

  r = c->Post("/api/v1/namespaces/default/configmaps", "kind: ConfigMap\nmetadata: {name: \xff}\n", "application/yaml");
  REQUIRE(r);
  CHECK(r->status == 400);
  CHECK(body_json(r)["message"].get<std::string>().find("yaml: invalid leading UTF-8 octet") != std::string::npos);
}
