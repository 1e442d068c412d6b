// The libcurl StreamSet: every stream is an easy handle on one multi handle, run by the
// calling thread. Over HTTP/2 (negotiated by ALPN) the streams share one connection, as many
// as the server's SETTINGS_MAX_CONCURRENT_STREAMS allows (libcurl opens another connection
// beyond that); over HTTP/1.1 each stream holds a connection of its own, with no limit per
// host (a stream never gives its connection back, so a limit would leave the rest waiting
// forever). Callers bound the number of streams they open.
#pragma once

#include <functional>
#include <memory>

#include "kube/curl_transfer.h"
#include "kube/stream_set.h"

namespace trainctl::kube {

// `auth` gives the credentials of each new stream; `settings` must outlive the set.
std::unique_ptr<StreamSet> make_curl_stream_set(const ClientSettings& settings,
                                                std::function<AuthMaterial()> auth);

}  // namespace trainctl::kube
