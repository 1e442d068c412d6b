// The Volcano Job kind's own options (`trainctl submit volcano`'s task flags) and its part of
// the plan (kind_part.h): tasks, their labels and policies, the job's policies.
#pragma once

#include <string>
#include <vector>

#include "submit/options.h"
#include "submit/plan.h"

namespace trainctl::submit {

struct VolcanoOptions {
  std::vector<std::string> tasks;  // NAME:REPLICAS[:IMAGE[:COMMAND]]
  std::vector<std::string> task_images;
  int task_replicas = 1;
  std::string task_name = "task";
  std::vector<std::string> task_labels;    // TASK:KEY=VALUE
  std::vector<std::string> task_policies;  // TASK:EVENT=ACTION
  std::vector<std::string> policies;       // EVENT=ACTION (job level; replaces the defaults)
  int task_port = 0;
  std::string scheduler_name;  // default volcano
};

struct Policy {  // a Volcano lifecycle policy: EVENT -> ACTION
  std::string event;
  std::string action;
};

struct Task {  // one Volcano task
  std::string name;
  int replicas = 1;
  std::string image;
  std::string command;           // empty: the image's entrypoint
  std::vector<KeyValue> labels;  // --task-label: on this task's pods only
  std::vector<Policy> policies;  // --task-policy
};

struct VolcanoPlan {
  std::vector<Task> tasks;
  std::vector<Policy> policies;  // job-level
  int task_port = 0;             // every task's container port (job-port); 0: none
};

// kinds/volcanojob_plan.cpp: the tasks, their labels and policies, the job's policies, gang
// size, queue and scheduler (SubmitKind::plan_gang of the Volcano kind).
void plan_volcano_tasks(const SubmitOptions& options, Plan& plan);
// --task NAME:REPLICAS[:IMAGE[:COMMAND]]; the image may carry a registry port, a tag and a
// digest (registry:5000/paddle:1.5@sha256:...), the command is everything after.
Task parse_task(const std::string& text);

}  // namespace trainctl::submit
