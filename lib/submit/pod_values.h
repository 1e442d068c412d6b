// The values of one pod template (templates/common/pod.yaml) for one replica type.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "submit/plan.h"

namespace trainctl::submit {

struct PodRole {
  std::string container_name;  // pytorch, mpi, the Volcano task name
  std::string restart_policy = "Never";  // "": none in the pod template (the operator sets it)
  std::string image;        // empty: the plan's image
  bool run_command = true;  // false: the image's entrypoint (MPI workers run sshd)
  std::string command;      // empty: the plan's command
  int gpus = -1;            // -1: the plan's --gpus
  // false: the pod requests only `resources` (the MPI launcher: no --cpu, --memory, --device,
  // --rdma of the workers).
  bool job_resources = true;
  std::vector<KeyValue> resources;
  bool job_info_env = true;  // Arena's `workers` and `gpus` variables (not on Volcano tasks)
  nlohmann::json extra_labels = nlohmann::json::object();
  nlohmann::json extra_env = nlohmann::json::array();         // [{name, value}]
  nlohmann::json extra_env_fields = nlohmann::json::array();  // [{name, field_path}]
  std::string subdomain;
  nlohmann::json ports = nlohmann::json::array();  // [{name, port}] of the container; []: none
};

// The string, or null when it is empty (a mustache section that renders nothing).
nlohmann::json or_null(const std::string& s);

// JSON key/value list [{key, value}] for mustache sections.
nlohmann::json kv_list(const std::vector<KeyValue>& items);

nlohmann::json pod_values(const Plan& plan, const PodRole& role);

}  // namespace trainctl::submit
