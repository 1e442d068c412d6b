// The REST client's limits against a real HTTPS server on 127.0.0.1: a 429 on a create is
// retried (the server did not process it), the request timeout bounds a request with its
// retries, answers larger than max_answer_bytes are refused unread, answers of the wrong
// shape are errors naming the request, and a refused connection is known not to have
// reached the server.
#include <atomic>
#include <catch2/catch.hpp>
#include <thread>

#include "core/errors.h"
#include "kube/answer_shape.h"
#include "kube/curl_client.h"
#include "kube/list_reads.h"
#include "kube/object_ops.h"
#include "kube/resource.h"
#include "test_client_fixture.h"

using namespace trainctl;
using namespace trainctl::testing;
using nlohmann::json;

namespace {

const char* const k_throttled =
    R"({"kind":"Status","apiVersion":"v1","status":"Failure","message":"Too many requests, please try again later.",)"
    R"("reason":"TooManyRequests","code":429})";

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("a create answered 429 is sent again, as client-go does for every verb", "[client][limits]") {
  ServerFixture fx;
  std::atomic<int> attempts{0};
  fx.server.routes().Post(
      "/api/v1/namespaces/ns/configmaps", [&](const httplib::Request&, httplib::Response& res) {
        if (++attempts == 1) {
          res.status = 429;
          res.set_header("Retry-After", "1");
          res.set_content(k_throttled, "application/json");
          return;
        }
        res.status = 201;
        res.set_content(R"({"kind":"ConfigMap","metadata":{"name":"c","uid":"u1"}})", "application/json");
      });
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();
  auto client = kube::make_curl_client(fx.config(), fast_options(waits));
  const json cm = {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "c"}}}};
  CHECK(kube::create_object(*client, kube::config_maps(), "ns", cm)["metadata"]["uid"] == "u1");
  CHECK(attempts == 2);
  REQUIRE(waits->count() == 1);
  CHECK(waits->waits[0] == std::chrono::seconds(1));
}

TEST_CASE("a create answered 429 again and again gives up after max_retries", "[client][limits]") {
  ServerFixture fx;
  std::atomic<int> attempts{0};
  fx.server.routes().Post("/p", [&](const httplib::Request&, httplib::Response& res) {
    ++attempts;
    res.status = 429;
    res.set_content(k_throttled, "application/json");
  });
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();
  auto client = kube::make_curl_client(fx.config(), fast_options(waits));
  CHECK_THROWS_AS(client->post_json("/p", json::object()), ApiError);
  CHECK(attempts == 4);  // the first attempt and max_retries (3) more
}

TEST_CASE("the request timeout bounds a request with its retries", "[client][limits]") {
  ServerFixture fx;
  std::atomic<int> attempts{0};
  fx.server.routes().Get("/busy", [&](const httplib::Request&, httplib::Response& res) {
    ++attempts;
    res.status = 503;
    res.set_header("Retry-After", "1");
    res.set_content(R"({"kind":"Status","status":"Failure","reason":"ServiceUnavailable","code":503})",
                    "application/json");
  });
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();
  kube::ClientOptions options = fast_options(waits);
  options.request_timeout = std::chrono::milliseconds(500);  // less than the 1 s the server asks for
  auto client = kube::make_curl_client(fx.config(), options);
  CHECK_THROWS_AS(client->get_json("/busy"), ApiError);
  CHECK(attempts == 1);
  CHECK(waits->count() == 0);
}

TEST_CASE("an answer larger than max_answer_bytes is refused before it is read whole", "[client][limits]") {
  ServerFixture fx;
  const std::string big = "{\"kind\":\"PodList\",\"items\":[],\"pad\":\"" + std::string(3 << 20, 'x') + "\"}";
  fx.server.routes().Get("/big", [&](const httplib::Request&, httplib::Response& res) {
    res.set_content(big, "application/json");
  });
  fx.server.routes().Get("/chunked", [&](const httplib::Request&, httplib::Response& res) {
    res.set_chunked_content_provider("application/json", [&](size_t offset, httplib::DataSink& sink) {
      if (offset >= big.size()) {
        sink.done();
        return true;
      }
      sink.write(big.data() + offset, std::min<size_t>(65536, big.size() - offset));
      return true;
    });
  });
  fx.server.routes().Get("/watch", [&](const httplib::Request&, httplib::Response& res) {
    res.set_content(big, "application/json");  // one line of 3 MiB
  });
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();
  kube::ClientOptions options = fast_options(waits);
  options.max_answer_bytes = 1 << 20;
  auto client = kube::make_curl_client(fx.config(), options);
  for (const char* path : {"/big", "/chunked"}) {
    CHECK(error_of([&] { client->get_json(path); }) ==
          "the server's answer to GET " + fx.server.url() + path +
              " holds an answer larger than 1 MiB, the most trainctl reads at once; it was not read");
  }
  CHECK(error_of([&] {
          client->stream({"GET", "/watch"}, [](std::string_view) { return true; });
        }) == "the server's answer to GET " + fx.server.url() +
                  "/watch holds a line larger than 1 MiB, the most trainctl reads at once; it was not read");
  CHECK(waits->count() == 0);
}

TEST_CASE("answers of the wrong shape are errors naming the request", "[client][limits]") {
  ServerFixture fx;
  std::string answer;
  auto serve = [&](const httplib::Request&, httplib::Response& res) {
    res.status = 200;
    res.set_content(answer, "application/json");
  };
  fx.server.routes().Get(R"(/apis/kubeflow.org/v1/namespaces/ns/pytorchjobs.*)", serve);
  fx.server.routes().Post(R"(/api/v1/namespaces/ns/configmaps.*)", serve);
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();
  auto client = kube::make_curl_client(fx.config(), fast_options(waits));
  const kube::Resource jobs{"kubeflow.org", "v1", "pytorchjobs", "PyTorchJob"};
  auto list = [&] { kube::stream_all(*client, {kube::list_read(jobs, "ns", {}, [](json&) {})}); };
  auto get = [&] { kube::stream_all(*client, {kube::object_read(jobs, "ns", "demo", [](json&) {})}); };
  const std::string list_path = "GET /apis/kubeflow.org/v1/namespaces/ns/pytorchjobs?limit=100";
  const std::string get_path = "GET /apis/kubeflow.org/v1/namespaces/ns/pytorchjobs/demo";

  answer = "[1,2,3]";
  CHECK(error_of(list) ==
        "the server answered " + list_path + " with a JSON array where a PyTorchJobList was expected");
  CHECK(error_of(get) ==
        "the server answered " + get_path + " with a JSON array where a PyTorchJob named demo was expected");
  answer = R"({"kind":"PyTorchJobList","items":[1]})";
  CHECK(error_of(list) ==
        "the server answered " + list_path +
            " with a PyTorchJobList holding a JSON number where a PyTorchJobList was expected");
  CHECK(error_of(get) == "the server answered " + get_path +
                             " with a PyTorchJobList where a PyTorchJob named demo was expected");
  answer = R"({"metadata":{}})";
  CHECK(error_of(list) == "the server answered " + list_path +
                              " with an object without kind or items where a PyTorchJobList was expected");
  answer = R"({"kind":"PyTorchJob","metadata":{"name":"other"}})";
  CHECK(error_of(get) == "the server answered " + get_path +
                             " with a PyTorchJob named \"other\" where a PyTorchJob named demo was expected");
  answer = R"({"kind":"PyTorchJobList","metadata":{},"items":[]})";
  CHECK(error_of(list) == "(no error)");

  const json cm = {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "c"}}}};
  answer = "[1,2,3]";
  CHECK(error_of([&] { kube::create_object(*client, kube::config_maps(), "ns", cm); }) ==
        "the server answered POST /api/v1/namespaces/ns/configmaps?fieldValidation=Strict with a JSON array "
        "where a "
        "ConfigMap named c was expected");
}

TEST_CASE("a refused connection is known not to have reached the server", "[client][limits]") {
  kube::RestConfig config;
  config.server = "https://127.0.0.1:1";
  auto waits = std::make_shared<RecordedWaits>();
  auto client = kube::make_curl_client(config, fast_options(waits));
  try {
    client->post_json("/api/v1/namespaces/default/pods", json::object());
    FAIL("no error");
  } catch (const TransportError& e) {
    CHECK_FALSE(e.may_have_reached_server());
  }
}
