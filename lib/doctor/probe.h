// The one round of requests doctor sends: each check asks for what it needs under a key
// (ask), the round goes out at once (Client::send_all), and each check reads its answers back
// by key. An answer is a body, or the HTTP status and message of its failure (404: not served
// or not found; 403: not allowed), or a transport error (status 0).
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kube/client.h"

namespace trainctl::doctor {

struct Answer {
  long status = 0;      // HTTP status; 0 when the request failed before an answer
  nlohmann::json body;  // the parsed body of a 2xx answer (null if not JSON)
  std::string error;    // the failure's message
  bool ok() const { return status >= 200 && status < 300; }
};

class Probe {
 public:
  // Adds a request under `key`; a key asked twice is sent once.
  void ask(const std::string& key, kube::Request request);
  void get(const std::string& key, const std::string& path);
  // Sends every request asked for in one round.
  void send(kube::Client& client);
  // The answer of `key`; a key never asked reads as a transport failure.
  const Answer& answer(const std::string& key) const;
  // The client's result itself (for readers that take results, e.g. the metrics source).
  const kube::Client::Result& result(const std::string& key) const;
  size_t size() const { return m_keys.size(); }

 private:
  std::vector<std::string> m_keys;
  std::vector<kube::Request> m_requests;
  std::map<std::string, Answer> m_answers;
  std::map<std::string, kube::Client::Result> m_results;
};

// The discovery answer (an APIResourceList) of GROUP/VERSION says it serves `plural`.
bool serves(const Probe& probe, const std::string& group, const std::string& version, const std::string& plural);
// Asks for the APIResourceList of GROUP/VERSION under its key (serves() reads it).
void ask_resources(Probe& probe, const std::string& group, const std::string& version);

// The metadata.name of each item of a list answer (none when it failed).
std::vector<std::string> item_names(const Answer& list);
// "a, b, c", or `none` for no items.
std::string joined(const std::vector<std::string>& items, const std::string& none = "none");

}  // namespace trainctl::doctor
