// kubeflow runPolicy handling shared by the PyTorchJob, TFJob and MPIJob controllers:
// cleanPodPolicy, ttlSecondsAfterFinished, activeDeadlineSeconds, backoffLimit.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "kubesim/controllers/context.h"

namespace kubesim {

using ObjectList = std::vector<std::shared_ptr<const json>>;

// Deletes the job's pods per cleanPodPolicy ("Running": pods still Pending/Running; "All";
// "None" = default) and, with them, the headless Services of the same name.
void clean_pods(Context& ctx, const json& job, const ObjectList& pods, bool delete_services);
// Deletes the finished job once ttlSecondsAfterFinished passed; schedules a wake-up
// otherwise. Returns true when the job was deleted.
bool apply_ttl(Context& ctx, const ResourceType& rt, const json& job);
// Seconds left before activeDeadlineSeconds (from status.startTime); nullopt = no deadline.
std::optional<std::chrono::milliseconds> deadline_left(Context& ctx, const json& job);
// Container restarts of pods whose restartPolicy restarts containers (OnFailure/Always).
int64_t container_restarts(const ObjectList& pods);
std::string phase_of(const json& pod);

}  // namespace kubesim
