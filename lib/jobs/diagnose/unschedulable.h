// Why a job's pods cannot start, for a wait that timed out: a pod the scheduler marked
// PodScheduled=False with reason Unschedulable (k8s.io/kubernetes pkg/scheduler/schedule_one.go
// handleSchedulingFailure: v1.PodReasonUnschedulable), or the Volcano PodGroup of its pods with
// a true Unschedulable condition (volcano pkg/apis/scheduling PodGroupUnschedulableType).
#pragma once

#include <optional>
#include <string>

#include "jobs/kind.h"
#include "kube/client.h"

namespace trainctl::jobs {

// The scheduler's message ("0/3 nodes are available: ...") of the first such pod (by name) or
// PodGroup; nullopt when nothing is unschedulable.
std::optional<std::string> unschedulable_message(kube::Client& client, const JobKind& kind,
                                                 const std::string& ns, const std::string& name);

}  // namespace trainctl::jobs
