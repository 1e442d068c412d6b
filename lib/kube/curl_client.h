// The libcurl implementation of Client.
#pragma once

#include <chrono>
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
};

std::unique_ptr<Client> make_curl_client(const RestConfig& config, const ClientOptions& options = {});

}  // namespace trainctl::kube
