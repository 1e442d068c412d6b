// How `trainctl wait` ended, as -o json prints it (docs/json-output.md, "wait").
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "jobs/job_status.h"
#include "jobs/diagnose/root_cause.h"

namespace trainctl::print {

struct WaitView {
  std::string name;
  std::string namespace_;
  std::string kind;                       // the job object's kind: PyTorchJob, TrainJob
  std::optional<jobs::JobStatus> status;  // the job's status as list shows it; none once deleted
  std::string result;                     // succeeded | running | failed | timeout | unschedulable | deleted
  std::optional<jobs::Failure> failure;   // of a failed job: its root cause
};

// {name, namespace, kind, status, result, failure}; status and failure null when absent.
nlohmann::ordered_json wait_json(const WaitView& w);

}  // namespace trainctl::print
