// What `trainctl doctor` found: one Finding per thing a job of trainctl's depends on (a job
// API, a scheduler or queue, GPUs, metrics, a permission), each with what was seen and, where
// it does not work, why that matters and how to fix it; and whether the namespace can run the
// default kind. The JSON shape is documented in docs/json-output.md.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace trainctl::doctor {

enum class Status {
  Ok,       // present, allowed, works
  Missing,  // absent or refused: what depends on it does not work
  Warning,  // present, with a limit the user should know of
  Info,     // a fact, neither good nor bad (e.g. an optional piece that is not installed)
};
std::string status_name(Status s);  // "ok", "missing", "warning", "info"

enum class Section { JobApis, Scheduling, Gpus, Metrics, Permissions };
std::string section_title(Section s);  // "Job APIs", ...
std::string section_key(Section s);    // "jobApis", ...

struct Finding {
  Section section = Section::JobApis;
  std::string id;    // stable key for scripts: "api.pytorchjob", "kueue.mpijob", "perm.pods"
  std::string name;  // "PyTorchJob"
  Status status = Status::Info;
  std::string result;  // what was seen: "kubeflow.org/v1; nprocPerNode, elasticPolicy"
  std::string reason;  // why it matters, where it does not work
  std::string fix;     // what to do about it
  nlohmann::ordered_json details = nlohmann::ordered_json::object();  // the facts, for -o json
};

struct Report {
  std::string server;              // the API server's URL
  std::string context;             // the kubeconfig context
  std::string kubernetes_version;  // "1.31", "" when /version was not read
  std::string namespace_;
  // The kind whose readiness decides the exit code and what submits it.
  std::string default_kind;     // "PyTorchJob"
  std::string default_command;  // "trainctl submit pytorch"
  bool ready = false;
  std::vector<std::string> not_ready_because;
  std::vector<Finding> findings;
  size_t api_requests = 0;  // requests to the API server, all sent in one round
  int round_trips = 0;      // that round, plus one query to Prometheus when one was found

  Finding& add(Finding f) {
    findings.push_back(std::move(f));
    return findings.back();
  }
  // Adds f with its verdict: the status, what was seen, what to do and (optionally) why it
  // matters. The checks' early exits (a piece not installed, nothing found) are this one line.
  Finding& add(Finding f, Status status, std::string result, std::string fix, std::string reason = "") {
    f.status = status;
    f.result = std::move(result);
    f.fix = std::move(fix);
    if (!reason.empty()) f.reason = std::move(reason);
    return add(std::move(f));
  }
  const Finding* find(const std::string& id) const;
  nlohmann::ordered_json to_json() const;
};

}  // namespace trainctl::doctor
