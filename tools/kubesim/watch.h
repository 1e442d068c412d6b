// A queue of serialized stream lines between a producer (store watch callback, log
// follower) and httplib's chunked content provider, with liveness checks on the socket.
#pragma once

#include <httplib.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>

namespace kubesim {

struct StreamQueue {
  std::mutex mu;
  std::condition_variable cv;
  std::deque<std::string> lines;
  bool closed = false;

  void push(std::string line);
  void close();
  // Waits up to timeout for lines; returns what is queued (maybe nothing).
  std::deque<std::string> take(std::chrono::milliseconds timeout);
};

// The socket of a request (TLS: from its SSL object; plain: found by peer address), or -1.
int request_socket(const httplib::Request& req);
// True when the peer has closed the connection (non-blocking peek).
bool peer_closed(int fd);
// Streams must not be gzip-compressed (httplib would buffer them until the end): drops
// the request's Accept-Encoding. httplib owns the request as a mutable object.
void disable_compression(const httplib::Request& req);
// Resets the connection (SO_LINGER 0 + shutdown): the client sees a reset, no response.
void reset_connection(int fd);

}  // namespace kubesim
