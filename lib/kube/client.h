// The REST client: an abstract seam (Client) with a libcurl implementation (CurlClient,
// lib/kube/curl_client.h) and, in tests, fakes. Paths are relative to the server, e.g.
// "/api/v1/namespaces/default/pods?labelSelector=a%3Db", built by kube/resource.h and
// kube/query.h; kube/list_reads.h reads lists page by page.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kube/query.h"

namespace trainctl::kube {

struct Request {
  std::string method = "GET";
  std::string path;  // absolute path with query string
  std::string body;
  std::string content_type = "application/json";
  std::string accept = "application/json";
  // Retried on 429/5xx/connection failures only when true. GET/PUT/DELETE default to
  // true, POST and PATCH to false (see is_idempotent()).
  std::optional<bool> idempotent;
  // Replaces the client's request timeout for this request (not for streams), e.g. the
  // short one of an optional extra such as a metrics query.
  std::optional<std::chrono::milliseconds> timeout;
  // A stream that ends on its own (a log read without follow): the request timeout limits
  // its silences (no byte for that long ends it), not its length. Other streams (watches,
  // follows) have no time limit.
  bool finite = false;
  // The size the answer is expected to reach (a list page asked for by its bytes): its body
  // is made that large before the first byte, so that it does not grow by doubling, each
  // copy leaving the heap a hole (a Content-Length answer is made its own size instead).
  size_t expected_bytes = 0;
  bool is_idempotent() const {
    if (idempotent) return *idempotent;
    return method == "GET" || method == "HEAD" || method == "PUT" || method == "DELETE";
  }
};

struct Response {
  long status = 0;
  std::string body;
  std::map<std::string, std::string> headers;  // lower-case names
};

// Called once per line of a streamed body (no trailing newline). Return false to stop.
using LineHandler = std::function<bool(std::string_view line)>;
// Called with the whole lines of a streamed body that arrived together, each ending in '\n'
// (a last line the body ends without one gets it too), and with an empty view when the
// stream has gone quiet after some lines (a moment to flush what was held back). Return
// false to stop.
using BlockHandler = std::function<bool(std::string_view lines)>;

class StreamSet;  // kube/stream_set.h

class Client {
public:
  virtual ~Client() = default;

  // Sends one request. 2xx returns the response; any other status throws ApiError carrying
  // the server's metav1.Status; connection failures throw TransportError. Retries as
  // described in docs/architecture.md for idempotent requests.
  virtual Response send(const Request& request) = 0;

  // Sends several requests at once (over one connection where the server allows) and
  // returns their results in order. Each entry is a response or the error it raised.
  struct Result {
    Response response;
    std::exception_ptr error;  // set when the request failed
  };
  virtual std::vector<Result> send_all(const std::vector<Request>& requests) = 0;

  // Streams a response body line by line (watch, pods/log?follow=true). Non-2xx throws
  // ApiError before any line is delivered. Returns when the server ends the body or the
  // handler returns false.
  virtual void stream(const Request& request, const LineHandler& on_line) = 0;

  // stream() for readers of many lines (pods/log?follow=true): one call per block of lines
  // that arrived together, so they can be written out at once. This default goes through
  // stream(): one line per block, each followed by the quiet signal.
  virtual void stream_blocks(const Request& request, const BlockHandler& on_block) {
    std::string line_nl;
    stream(request, [&](std::string_view line) {
      line_nl.assign(line);
      line_nl += '\n';
      return on_block(line_nl) && on_block({});
    });
  }

  // Streams run together on the calling thread (kube/stream_set.h). This default runs them
  // one after another through stream_blocks(); the libcurl client multiplexes them.
  virtual std::unique_ptr<StreamSet> stream_set();

  // Convenience built on send(): GET and parse JSON.
  nlohmann::json get_json(const std::string& path);
  nlohmann::json post_json(const std::string& path, const nlohmann::json& body);
  nlohmann::json delete_json(const std::string& path, const nlohmann::json& body = nullptr);
  // PATCH with a body of that patch type (application/merge-patch+json, ...).
  nlohmann::json patch_json(const std::string& path, const nlohmann::json& body, const std::string& content_type);

 private:
  // One request of `method` with `body` (none when null) and its JSON answer.
  nlohmann::json send_json(const std::string& method, const std::string& path, const nlohmann::json& body,
                           const std::string& content_type = "");
};

}  // namespace trainctl::kube
