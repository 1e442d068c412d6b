// The training script of a Kubeflow Trainer pod reporting its progress (kubeflow/trainer v2.3.0,
// feature gate TrainJobStatus: plugins/trainjobstatus injects KUBEFLOW_TRAINER_SERVER_URL and a
// token; the script POSTs {"trainerStatus": {...}} to that URL and the status server
// (pkg/statusserver/server.go handleTrainJobRuntimeStatus) server-side-applies it to
// status.trainerStatus with field manager trainer-status).
//
// kubesim's model of the script: the trainer pod of completion index 0 whose container has the
// URL (literal env) reports, while it trains and when it ends with exit code 0,
// {progressPercentage: lines written / lines of the run, estimatedRemainingSeconds: the run's
// remaining time, metrics: [{name: loss, value: the last log line's loss}], lastUpdatedTime},
// at most every kTrainerReportInterval of simulated time (and always at 100%). The pod
// annotation kubesim.trainctl.io/progress: none (on the TrainJob: every pod) keeps it silent,
// as a script that does not report.
#pragma once

#include <chrono>
#include <string>

#include "kubesim/controllers/context.h"

namespace kubesim {

inline constexpr const char* kProgressAnnotation = "kubesim.trainctl.io/progress";
inline constexpr std::chrono::seconds kTrainerReportInterval{10};

// Whether pod's script reports (the rules above).
bool reports_trainer_progress(const json& pod);

// Writes status.trainerStatus of the TrainJob pod's URL names; `loss` empty when unknown.
void report_trainer_progress(Context& ctx, const json& pod, int percentage, int64_t remaining_seconds,
                             const std::string& loss);

}  // namespace kubesim
