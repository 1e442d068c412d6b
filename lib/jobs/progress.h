// Training progress a job object reports about itself: Kubeflow Trainer's
// status.trainerStatus (TrainJobStatus feature gate; kubeflow/trainer@v2.3.0
// pkg/apis/trainer/v1alpha1/trainjob_types.go TrainerStatus). Kinds without such a field
// have no JobKind::progress rule; get, list -o wide and -o json show it where present.
#pragma once

#include <chrono>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace trainctl::jobs {

struct TrainingProgress {
  std::optional<long long> percent;                          // progressPercentage, 0..100
  std::optional<std::chrono::seconds> remaining;             // estimatedRemainingSeconds
  std::vector<std::pair<std::string, std::string>> metrics;  // name, value as written
  std::string updated;                                       // lastUpdatedTime, RFC 3339 as written

  // "42%", "42% (ETA 1h)", "ETA 5m" or "-" when neither is known (list's PROGRESS column).
  std::string display() const;
  // "loss=0.31 accuracy=0.92" ("" without metrics).
  std::string metrics_display() const;
  // docs/json-output.md "progress": {"percent", "remainingSeconds", "metrics", "lastUpdated"}.
  nlohmann::ordered_json to_json() const;
};

}  // namespace trainctl::jobs
