// Request bodies read as kube-apiserver reads them: at most MaxRequestBodyBytes, 3 MiB by
// default (k8s.io/apiserver v0.33.0 pkg/server/config.go NewConfig), whether the client sent
// a Content-Length or a chunked body. Every handler that takes a body (create.go, update.go,
// patch.go, delete.go) reads it with handlers/rest.go limitedReadBody: an io.LimitedReader
// of limit+1 bytes, and a body longer than the limit is 413 RequestEntityTooLarge, "Request
// entity too large: limit is 3145728" (apimachinery pkg/api/errors NewRequestEntityTooLargeError).
#pragma once

#include "kubesim/store.h"

#include <httplib.h>

#include <cstddef>
#include <functional>

namespace kubesim {

inline constexpr size_t kMaxRequestBodyBytes = 3 * 1024 * 1024;

// The 413 Status of a body over `limit` bytes.
StatusError request_entity_too_large(size_t limit);

// Wraps `next` for httplib's POST/PUT/PATCH/DELETE routes: reads the body into req.body,
// keeping at most `limit` bytes. A longer body (Content-Length or chunked) is read to its end
// and dropped, so that the connection stays usable, and `on_error` answers the 413 Status;
// a body that cannot be read (a broken chunk, the client gone) is a 400. cpp-httplib itself
// answers 413 (server.cpp's error handler) to a Content-Length over its payload limit, which
// server.cpp sets to the same `limit`.
httplib::Server::HandlerWithContentReader with_limited_body(
    size_t limit, httplib::Server::Handler next,
    std::function<void(const httplib::Request&, httplib::Response&, const StatusError&)> on_error);

}  // namespace kubesim
