// Finding jobs on the cluster: list (every kind, one parallel round trip) and get (one job
// by name, with what get/logs need around it).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "jobs/kind.h"
#include "jobs/listed_jobs.h"
#include "jobs/diagnose/pending_reason.h"
#include "jobs/cluster/queues.h"
#include "jobs/replica.h"
#include "jobs/training_job.h"
#include "kube/client.h"

namespace trainctl::jobs {

// Kinds to search: the one --type names, or all of them ("" = all).
std::vector<const JobKind*> kinds_for_type(const std::string& type);

// Every job of `kinds` in `ns` ("" = all namespaces), newest first. One list per kind and one
// pod list per pod job-name label, all sent together and paged together; items are reduced
// to summaries as they stream in, and pods are folded into their job's entry at once
// (listed_jobs.h).
// A kind whose resource is not served (404, CRD not installed) is skipped. With `instances`
// false the jobs carry no Instance rows and memory follows the number of jobs, not pods; with
// it true they carry them, without container names (get has those).
JobList list_jobs(kube::Client& client, const std::string& ns,
                  const std::vector<const JobKind*>& kinds, TimePoint now, bool instances);
// The same jobs, sorted the same way, held in their compact form (listed_jobs.h) to be built
// one at a time: what list prints a whole cluster from.
ListedJobs read_listed_jobs(kube::Client& client, const std::string& ns,
                            const std::vector<const JobKind*>& kinds, TimePoint now, bool instances);

// Newest first; then by kind (all_kinds() order), namespace and name.
void sort_newest_first(JobList& jobs);

struct GetOptions {
  std::string ns;
  std::string name;
  std::vector<const JobKind*> kinds;
  bool tensorboard = false;  // also read role=tensorboard services
  bool events = false;       // also read the namespace's events
  bool pending = false;      // explain a pending job (pending_query.h: one more round of reads)
};

struct GetResult {
  TrainingJob job;
  std::vector<Replica> replicas;       // the role and rank of each of its pods (replica.h)
  std::vector<nlohmann::json> events;  // of the job and its pods, oldest first
  PendingReason pending;               // empty unless asked and the job looks pending
  QueueRead queue;                     // with pending: a PENDING or QUEUING job's, read in that round
};

// The job NAME: GETs of every candidate kind, its pods (one list per job-name label), and
// (as asked) TensorBoard services and the namespace's events, in one parallel round trip:
// without -T and -e, 5 GETs, 3 pod lists and the services, one more than the client's 8
// connections per host (kube/curl_holder.cpp), so one of them waits for a connection. The
// TensorBoard URL uses the host IP of the job's chief (a NodePort is open on every node).
// The name resolves to one kind as find_jobs resolves it (find_jobs.h), with the same errors:
// NotFoundError "job NAME not found in namespace NS", UsageError naming the kinds.
GetResult get_job(kube::Client& client, const GetOptions& options, TimePoint now);

// TensorBoard URL from the services labelled role=tensorboard,release=NAME: a LoadBalancer
// ingress IP with the service port, else ports[0].nodePort on `host_ip` (the IP of a node:
// a NodePort is open on every node); "" when neither applies.
std::string tensorboard_url(const std::vector<nlohmann::json>& services, const std::string& host_ip);

}  // namespace trainctl::jobs
