// Several streamed bodies (pods/log?follow=true, watches) moved on together by one thread,
// so that following many pods costs one thread and a connection (or an HTTP/2 stream) each,
// not a thread each.
#pragma once

#include <chrono>
#include <cstdint>
#include <exception>
#include <memory>
#include <vector>

#include "kube/client.h"

namespace trainctl::kube {

class StreamSet {
 public:
  using Id = std::uint64_t;
  struct Ended {
    Id id = 0;
    // Null when the server ended the body or the handler said stop; else the ApiError of a
    // non-2xx answer, the TransportError of a failed or cut connection, or what the handler threw.
    std::exception_ptr error;
  };

  virtual ~StreamSet() = default;
  // Starts a stream whose blocks of whole lines go to on_block (as Client::stream_blocks).
  // Not retried: the caller decides when to open it again.
  virtual Id add(const Request& request, BlockHandler on_block) = 0;
  // Stops a stream at once; its handler is not called again. Unknown ids are ignored.
  virtual void remove(Id id) = 0;
  // Moves the streams on for at most `timeout`, returning early when some ended; returns
  // those (no longer in the set).
  virtual std::vector<Ended> run(std::chrono::milliseconds timeout) = 0;
  virtual size_t size() const = 0;
};

// A StreamSet over client.stream_blocks(): run() runs each stream to its end, one after
// another. For clients that cannot multiplex (test fakes, whose bodies are finite).
std::unique_ptr<StreamSet> sequential_stream_set(Client& client);

}  // namespace trainctl::kube
