// Non-2xx answers become ApiError in one place (kube/status_error.h): a metav1.Status keeps
// the server's message, reason, code and causes; anything else gets a clean message.
#include <catch2/catch.hpp>

#include "core/errors.h"
#include "kube/curl_client.h"
#include "kube/status_error.h"
#include "test_client_fixture.h"

using namespace trainctl;
using namespace trainctl::testing;

namespace {

template <typename F>
ApiError expect_api_error(F&& f) {
  try {
    f();
  } catch (const ApiError& e) {
    return e;
  }
  FAIL("no ApiError was thrown");
  return ApiError(0, "", "");
}

void serve(HttpsServer& server, const std::string& path, int status, const std::string& body,
           const std::string& type) {
  server.routes().Get(path, [=](const httplib::Request&, httplib::Response& res) {
    res.status = status;
    res.set_content(body, type.c_str());
  });
}

}  // namespace

TEST_CASE("a Status 404 becomes ApiError NotFound with the server's message", "[client][errors]") {
  ServerFixture fx;
  // As the API server answers a GET of a missing pod.
  serve(fx.server, "/api/v1/namespaces/default/pods/nope", 404,
        R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",)"
        R"("message":"pods \"nope\" not found","reason":"NotFound",)"
        R"("details":{"name":"nope","kind":"pods"},"code":404})",
        "application/json");
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();
  auto client = kube::make_curl_client(fx.config(), fast_options(waits));
  const ApiError e = expect_api_error([&] { client->get_json("/api/v1/namespaces/default/pods/nope"); });
  CHECK(e.http_status() == 404);
  CHECK(e.reason() == "NotFound");
  CHECK(std::string(e.what()) == "pods \"nope\" not found");
  CHECK(e.is_not_found());
  CHECK(e.code() == ExitCode::NotFound);
  CHECK(waits->count() == 0);
}

TEST_CASE("a 422 Invalid Status keeps its causes", "[client][errors]") {
  ServerFixture fx;
  serve(fx.server, "/invalid", 422,
        R"({"kind":"Status","apiVersion":"v1","status":"Failure",)"
        R"("message":"PyTorchJob.kubeflow.org \"x\" is invalid: spec.pytorchReplicaSpecs: Required value",)"
        R"("reason":"Invalid","details":{"name":"x","group":"kubeflow.org","kind":"PyTorchJob",)"
        R"("causes":[{"reason":"FieldValueRequired","message":"Required value",)"
        R"("field":"spec.pytorchReplicaSpecs"}]},"code":422})",
        "application/json");
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();
  auto client = kube::make_curl_client(fx.config(), fast_options(waits));
  const ApiError e = expect_api_error([&] { client->get_json("/invalid"); });
  CHECK(e.http_status() == 422);
  CHECK(e.reason() == "Invalid");
  REQUIRE(e.causes().size() == 1);
  CHECK(e.causes()[0].reason == "FieldValueRequired");
  CHECK(e.causes()[0].field == "spec.pytorchReplicaSpecs");
  CHECK(e.causes()[0].message == "Required value");
  CHECK(e.code() == ExitCode::Error);
}

TEST_CASE("an HTML 502 from a proxy gives a clean message", "[client][errors]") {
  ServerFixture fx;
  serve(fx.server, "/proxied", 502,
        "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n"
        "<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n",
        "text/html");
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();
  kube::ClientOptions options = fast_options(waits);
  options.max_retries = 1;
  auto client = kube::make_curl_client(fx.config(), options);
  const ApiError e = expect_api_error([&] { client->get_json("/proxied"); });
  CHECK(e.http_status() == 502);
  CHECK(std::string(e.what()) ==
        "the server returned HTTP 502 Bad Gateway with a body that is not a Kubernetes Status: "
        "\"502 Bad Gateway 502 Bad Gateway nginx\"");
  CHECK(waits->count() == 1);  // 502 is retried for a GET
}

TEST_CASE("truncated JSON and empty bodies give the HTTP code", "[client][errors]") {
  ServerFixture fx;
  serve(fx.server, "/truncated", 500, R"({"kind":"Status","apiVersion":"v1","mess)", "application/json");
  serve(fx.server, "/empty", 403, "", "application/json");
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();
  kube::ClientOptions options = fast_options(waits);
  options.max_retries = 0;
  auto client = kube::make_curl_client(fx.config(), options);

  const ApiError truncated = expect_api_error([&] { client->get_json("/truncated"); });
  CHECK(truncated.http_status() == 500);
  CHECK(truncated.reason() == "InternalError");
  CHECK(std::string(truncated.what()).find("HTTP 500 Internal Server Error") != std::string::npos);
  CHECK(std::string(truncated.what()).find(R"("kind":"Status","apiVersion":"v1","mess)") != std::string::npos);

  const ApiError empty = expect_api_error([&] { client->get_json("/empty"); });
  CHECK(std::string(empty.what()) == "the server returned HTTP 403 Forbidden with no Kubernetes Status in the body");
  CHECK(empty.reason() == "Forbidden");
  CHECK(empty.code() == ExitCode::Auth);
}

TEST_CASE("sanitised excerpts drop tags and control characters and are cut short", "[client][errors]") {
  CHECK(kube::sanitised_excerpt("<p>a\tb\x01\x7f  c</p>") == "a b c");
  const std::string long_body(1000, 'x');
  const std::string cut = kube::sanitised_excerpt(long_body, 50);
  CHECK(cut == std::string(50, 'x') + "...");
  CHECK(kube::sanitised_excerpt("\xff\xfe binary \x1b[31m") == "binary [31m");
}

TEST_CASE("Retry-After is read as seconds or as an HTTP date", "[client][errors]") {
  CHECK(kube::parse_retry_after("7") == 7);
  CHECK(kube::parse_retry_after(" 0 ") == 0);
  CHECK(kube::parse_retry_after("") == -1);
  CHECK(kube::parse_retry_after("soon") == -1);
  CHECK(kube::parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT") == 0);  // in the past: now
  // A Status may carry details.retryAfterSeconds instead of the header.
  const ApiError e = kube::api_error_from_response(
      429, R"({"kind":"Status","status":"Failure","message":"slow down","reason":"TooManyRequests",)"
           R"("details":{"retryAfterSeconds":4},"code":429})",
      {});
  CHECK(e.retry_after_seconds() == 4);
  CHECK(e.reason() == "TooManyRequests");
}

TEST_CASE("a 2xx body that is not JSON gives a clear Error", "[client][errors]") {
  ServerFixture fx;
  serve(fx.server, "/html", 200, "<html><body>Sign in to continue</body></html>", "text/html");
  fx.server.start();
  auto waits = std::make_shared<RecordedWaits>();
  auto client = kube::make_curl_client(fx.config(), fast_options(waits));
  try {
    client->get_json("/html");
    FAIL("expected an Error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()) ==
          "the server answered GET /html with HTTP 200 but the body is not JSON: \"Sign in to continue\"");
  }
}

TEST_CASE("a Status 429 or 5xx names the HTTP code before the server's message", "[client][errors]") {
  const ApiError busy = kube::api_error_from_response(
      429, R"({"kind":"Status","status":"Failure","message":"slow down","reason":"TooManyRequests","code":429})", {});
  CHECK(std::string(busy.what()) == "the server returned HTTP 429 Too Many Requests: slow down");
  const ApiError down = kube::api_error_from_response(
      503, R"({"kind":"Status","status":"Failure","message":"etcd is down","reason":"ServiceUnavailable"})", {});
  CHECK(std::string(down.what()) == "the server returned HTTP 503 Service Unavailable: etcd is down");
  CHECK(down.reason() == "ServiceUnavailable");
  // Answers that are decisions keep the server's own words.
  const ApiError conflict = kube::api_error_from_response(
      409, R"({"kind":"Status","status":"Failure","message":"already exists","reason":"AlreadyExists"})", {});
  CHECK(std::string(conflict.what()) == "already exists");
}
