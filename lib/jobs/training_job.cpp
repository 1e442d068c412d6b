#include "jobs/training_job.h"

#include "core/duration.h"

namespace trainctl::jobs {

std::string TrainingJob::allocated_display() const {
  // A job being deleted still holds the GPUs of its pods until they have terminated.
  if (status == JobStatus::Pending || status == JobStatus::Running || status == JobStatus::Terminating)
    return std::to_string(gpus_allocated);
  return "N/A";
}

std::string TrainingJob::node_display() const { return chief_node_ip.empty() ? "N/A" : chief_node_ip; }

std::string TrainingJob::workers_display() const {
  if (!elastic) return "";
  return std::to_string(elastic->running) + " (elastic " + std::to_string(elastic->range.min) + "-" +
         std::to_string(elastic->range.max) + ")";
}

namespace {
long long unix_seconds(TimePoint t) {
  return std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch()).count();
}
}  // namespace

nlohmann::ordered_json TrainingJob::to_json() const {
  nlohmann::ordered_json j;
  j["name"] = name;
  j["namespace"] = namespace_;
  j["uid"] = uid;
  j["kind"] = kind->resource.kind;
  j["apiVersion"] = kind->resource.api_version();
  j["trainer"] = type();
  j["status"] = status_name(status);
  j["duration"] = std::to_string(duration.count()) + "s";
  j["creationTimestamp"] = unix_seconds(created);
  j["createTime"] = format_rfc3339(created);
  j["endTime"] = ended ? nlohmann::ordered_json(format_rfc3339(*ended)) : nlohmann::ordered_json();
  j["priority"] = priority;
  j["requestGPUs"] = gpus_requested;
  j["allocatedGPUs"] = gpus_allocated;
  j["chiefName"] = chief_name;
  j["nodeIP"] = chief_node_ip;
  j["tensorboard"] = tensorboard;
  if (elastic) {
    j["elastic"] = {{"runningWorkers", elastic->running},
                    {"minWorkers", elastic->range.min},
                    {"maxWorkers", elastic->range.max}};
  }
  if (progress) j["progress"] = progress->to_json();
  j["instances"] = nlohmann::ordered_json::array();
  for (const auto& i : instances) {
    nlohmann::ordered_json ij;
    ij["name"] = i.name;
    ij["status"] = i.status;
    ij["phase"] = i.phase;
    ij["age"] = std::to_string(duration.count()) + "s";
    ij["isChief"] = i.is_chief;
    ij["requestGPUs"] = i.gpus;
    ij["nodeName"] = i.node_name;
    ij["nodeIP"] = i.node_ip;
    ij["restarts"] = i.restarts;
    ij["creationTimestamp"] = i.created ? unix_seconds(*i.created) : 0;
    ij["gpuDeviceIndex"] = i.gpu_index;
    j["instances"].push_back(std::move(ij));
  }
  return j;
}

}  // namespace trainctl::jobs
