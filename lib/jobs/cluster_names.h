// The names shell completion offers from the cluster (trainctl __complete): of jobs, of a
// job's instances, of namespaces, PVCs and nodes. Each is the first page of a list; the
// lists are built first (which may throw, for an invalid namespace), then read together, and
// the read never fails: what the cluster refuses gives no names.
#pragma once

#include <string>
#include <vector>

#include "jobs/kind.h"
#include "kube/client.h"
#include "kube/resource.h"

namespace trainctl::jobs {

// One page of names is enough to complete from.
inline constexpr int kCompletionNames = 500;

// The lists of the job objects of `kinds` in `ns`.
std::vector<std::string> job_name_lists(const std::string& ns, const std::vector<const JobKind*>& kinds);
// The lists of the pods of job `job` of each of `kinds` in `ns` (one per distinct selector).
std::vector<std::string> instance_name_lists(const std::string& ns, const std::vector<const JobKind*>& kinds,
                                             const std::string& job);
// The list of `resource` in `ns` ("" = cluster-scoped).
std::string name_list(const kube::Resource& resource, const std::string& ns);

// metadata.name of the items of every list answered with 2xx, the lists sent together.
std::vector<std::string> read_names(kube::Client& client, const std::vector<std::string>& lists);

}  // namespace trainctl::jobs
