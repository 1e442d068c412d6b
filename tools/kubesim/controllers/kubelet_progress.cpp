// The progress reports of a Trainer pod's training script (trainer_status_report.h), from the
// kubelet's view of its run: the lines written of the run's lines, its remaining time, the
// last line's loss.
#include <regex>

#include "kubesim/controllers/kubelet.h"
#include "kubesim/controllers/trainer_status_report.h"

namespace kubesim {

void Kubelet::report_progress(const json& pod, Run& run, TimePoint at, bool done) {
  if (!done && at < run.last_report + kTrainerReportInterval) return;
  run.last_report = at;
  const size_t total = std::max<size_t>(run.total_lines, 1);
  const int percentage = done ? 100 : static_cast<int>(std::min<size_t>(100, run.lines * 100 / total));
  int64_t remaining = 0;
  if (!done && run.stage_end != kNever)
    remaining = std::chrono::duration_cast<std::chrono::seconds>(run.stage_end - at).count();
  std::string loss;
  static const std::regex loss_re("loss=([0-9.]+)");
  for (const auto& log : run.logs) {
    if (!log->is_training() || run.lines == 0) continue;
    std::smatch m;
    const std::string line = log->line(run.lines - 1);
    if (std::regex_search(line, m, loss_re)) loss = m[1].str();
    break;
  }
  report_trainer_progress(m_ctx, pod, percentage, remaining, loss);
}

}  // namespace kubesim
