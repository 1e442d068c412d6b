// The libcurl implementation of Client.
//
// TLS is verified unless the RestConfig says insecure_skip_tls_verify (a warning is logged
// once). CA, client certificate and key go to libcurl from memory (CURLOPT_*_BLOB); no key
// is ever written to a file. With a CA in the config only that CA is trusted, as kubectl
// does; without one, the system trust store.
//
// tls_server_name: requests go to https://<tls_server_name>:<port>/... with
// CURLOPT_CONNECT_TO mapping that name back to the server's host and port, so the TCP
// connection goes where `server` says while SNI and certificate verification use
// tls_server_name (the Host header names it too; the API server ignores Host). Combined
// with proxy_url, which host the proxy is asked to tunnel to is libcurl's choice; that
// combination is not covered by tests.
//
// proxy_url is used for every request when set. Without it libcurl reads https_proxy /
// HTTPS_PROXY like kubectl; loopback addresses (localhost, 127.0.0.1, ::1) are always
// reached directly, as Go's ProxyFromEnvironment does, added to NO_PROXY.
//
// Connections: one share handle (connection cache, DNS, TLS sessions) per client, so
// consecutive send() calls and the transfers of send_all() reuse connections; HTTP/2 is
// negotiated by ALPN when the server offers it, and send_all() multiplexes over it.
// send()/send_all() are serialised per client (libcurl cannot share connections between
// threads running at once); stream() and stream_blocks() use their own connection and may
// run in parallel.
// Answers may come gzip-, deflate- or br-encoded; a stream asks for no encoding, because a
// compressor on the way would hold lines back until its buffer fills.
//
// TLS failures name their cause: a server certificate not trusted by the kubeconfig's CA
// or not issued for the host name, or a client certificate the server refused (seen from
// the TLS alert the server sends, which libcurl's trace reports; headers and data of the
// trace are never read). These exit with ExitCode::Auth and are not retried.
//
// Retries: idempotent requests (Request::is_idempotent) are retried on 429 (waiting
// Retry-After seconds when given), 500/502/503/504, refused/reset/closed connections and
// connect timeouts, with exponential backoff and jitter, at most max_retries times and
// max_retry_time of waiting. A request that timed out after connecting is not retried (it
// already used the whole request timeout). A non-idempotent request (POST, PATCH) is sent
// again when its connection was refused, so it cannot have reached the server, and when it
// was answered 429: the server did not process it (client-go retries any verb answered 429
// or 5xx with Retry-After, rest/with_retry.go IsNextRetry and checkWait); a POST answered
// with 503 (or reset after sending) is never retried.
// The request timeout bounds a request with all its retries, as client-go's does
// (rest/request.go request(): context.WithTimeout around the retry loop): each attempt gets
// what is left, and a retry whose wait would end past it is not made. The requests of one
// send_all() share that deadline. A host name that does
// not resolve and TLS failures are not retried for any request. A 401
// with an exec plugin (or a token file that changed) is retried once with fresh credentials.
// stream() and stream_blocks() retry the same way only before any line has been delivered.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "kube/client.h"
#include "kube/config.h"

namespace trainctl::kube {

struct ClientOptions {
  std::chrono::milliseconds request_timeout{30000};  // 0 = none (watch/follow streams ignore it)
  int max_retries = 5;                                // idempotent requests only
  std::chrono::milliseconds max_retry_time{30000};   // total time spent waiting between retries
  std::chrono::milliseconds initial_backoff{200};    // doubled per retry, with jitter
  std::string user_agent;                             // default "trainctl/VERSION"
  std::chrono::milliseconds connect_timeout{10000};  // TCP + TLS handshake; 0 = libcurl's default
  // The largest answer read whole (and the longest line of a stream); a larger one is an
  // Error, read no further. Lists come in pages of 500 items: a page of 500 nodes at the 50
  // images each the kubelet reports is about 30 MB.
  size_t max_answer_bytes = size_t{64} << 20;
  // Waits between retries; defaults to std::this_thread::sleep_for. Tests record the waits.
  std::function<void(std::chrono::milliseconds)> sleep;
};

std::unique_ptr<Client> make_curl_client(const RestConfig& config, const ClientOptions& options = {});

}  // namespace trainctl::kube
