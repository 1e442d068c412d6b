// The logs of every replica of a job (`logs --all`): printed one replica after another, or
// followed all at once (-f) on one thread through a kube::StreamSet until the job ends. Each
// line carries its replica's prefix (log_merge.h).
#pragma once

#include <chrono>
#include <optional>
#include <ostream>
#include <string>

#include "jobs/job_status.h"
#include "jobs/kind.h"
#include "jobs/logs/pod_logs.h"
#include "jobs/replica.h"
#include "kube/client.h"

namespace trainctl::jobs {

struct AllLogsOptions {
  LogOptions log;  // namespace, container (-c, "" = each pod's main one), window, timestamps; pod unused
  const JobKind* kind = nullptr;
  std::string job;
  ReplicaFilter filter;
  bool prefix = true;
  bool color = false;
  std::chrono::milliseconds reconnect_delay{1000};
  // Streams followed at once; a job with more matching replicas is refused with a message
  // naming --role/--rank (each stream is a connection over HTTP/1.1).
  size_t max_streams = 256;
};

// Each matching replica's log, one after another (chief-like roles first, by rank).
// NotFoundError when no pod matches.
void read_all_logs(kube::Client& client, const AllLogsOptions& o, std::ostream& out);

struct FollowAllResult {
  std::optional<JobStatus> status;  // the job's final status; nullopt when it was deleted
  size_t replicas = 0;              // replicas whose logs were followed
};

// Follows every matching replica, including pods that start later or are created again, and
// containers that restart, until the job ends. The job's pods are watched by label selector
// and the job by name; nothing is polled.
FollowAllResult follow_all_logs(kube::Client& client, const AllLogsOptions& o, std::ostream& out);

// The container of `pod` whose log is read: `wanted` when set, else the first of several
// (the server needs one named), else "" (the only one).
std::string log_container(const nlohmann::json& pod, const std::string& wanted);

}  // namespace trainctl::jobs
