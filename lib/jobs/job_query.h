// Finding jobs on the cluster: list (every kind, one parallel round trip) and get (one job
// by name, with what get/logs need around it).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "jobs/kind.h"
#include "jobs/training_job.h"
#include "kube/client.h"

namespace trainctl::jobs {

// Kinds to search: the one --type names, or all of them ("" = all).
std::vector<const JobKind*> kinds_for_type(const std::string& type);

// Every job of `kinds` in `ns` ("" = all namespaces), newest first. One list per kind and one
// pod list per pod job-name label, all sent together; a kind whose resource is not served
// (404, CRD not installed) is skipped.
std::vector<TrainingJob> list_jobs(kube::Client& client, const std::string& ns,
                                   const std::vector<const JobKind*>& kinds, TimePoint now);

struct GetOptions {
  std::string ns;
  std::string name;
  std::vector<const JobKind*> kinds;
  bool tensorboard = false;  // also read role=tensorboard services and nodes
  bool events = false;       // also read the namespace's events
};

struct GetResult {
  TrainingJob job;
  std::vector<nlohmann::json> events;  // of the job and its pods, oldest first
};

// The job NAME: GETs of every candidate kind, its pods, and (as asked) services, nodes and
// events in one parallel round trip. Throws NotFoundError "job NAME not found in namespace
// NS" when no kind has it, UsageError naming the kinds when several have it.
GetResult get_job(kube::Client& client, const GetOptions& options, TimePoint now);

// TensorBoard URL from the services labelled role=tensorboard,release=NAME and the nodes:
// a LoadBalancer ingress IP with the service port, else the InternalIP of the first Ready
// node with ports[0].nodePort; "" when neither applies.
std::string tensorboard_url(const std::vector<nlohmann::json>& services,
                            const std::vector<nlohmann::json>& nodes);

}  // namespace trainctl::jobs
