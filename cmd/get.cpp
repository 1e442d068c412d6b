// trainctl get: one training job: status, trainer, duration, instances with node and GPUs,
// the TensorBoard URL; with -g the utilisation and memory of its GPUs (cmd/gpu_metrics.h) and
// their utilisation over --idle-window as sparklines, with -e the events of the job and its pods.
#include "cmd/get.h"

#include <CLI/CLI.hpp>

#include "cmd/failure_report.h"
#include "cmd/get_queue.h"
#include "cmd/gpu_metrics.h"
#include "cmd/run.h"
#include "jobs/job_query.h"
#include "jobs/kind.h"
#include "print/failure_view.h"
#include "print/gpu_sparkline.h"
#include "print/job_views.h"
#include "print/pending_view.h"
#include "print/print_as.h"

namespace trainctl {

void complete_get(GetOptions& o) {
  o.format = print::parse_output(o.output, GetOptions::kFormats);
  o.kinds = jobs::kinds_for_type(o.type);
  if (o.gpus) o.idle = idle_rule(o.idle_flags);
}

void run_get(const GetOptions& o, Factory& f) {
  jobs::GetOptions q;
  q.ns = f.namespace_();
  q.name = o.name;
  q.kinds = o.kinds;
  q.tensorboard = true;
  q.events = o.events;
  q.pending = true;
  const auto now = f.clock()();
  const auto r = jobs::get_job(f.client(), q, now);
  const auto failure =
      r.job.status == jobs::JobStatus::Failed ? read_failure(f, *r.job.kind, q.ns, r.job.name) : std::nullopt;
  // -g: the GPUs of the job's running instances, as Arena shows them while the job has not succeeded.
  std::optional<std::vector<metrics::GpuMetric>> gpus;
  const bool show_gpus = o.gpus && r.job.status != jobs::JobStatus::Succeeded;
  std::optional<metrics::UtilizationHistory> history;
  if (show_gpus) {
    gpus = job_gpu_metrics(f, r.job);
    if (gpus) history = job_gpu_history(f, r.job, *o.idle);
  }
  const GetQueue queue(f, r.job, r.queue);
  print::print_as(o.format,
                  {.human =
                       [&](std::ostream& out) {
                         std::string section =
                             show_gpus ? print::job_gpus_view(r.job, gpus.value_or(std::vector<metrics::GpuMetric>{}), f.io())
                                       : "";
                         if (history) section += "\n" + print::job_gpu_history_text(*history, f.io());
                         out << print::job_details(r.job, f.io(), section) << print::pending_view(r.pending);
                         queue.print(out);
                         if (o.events) out << print::events_view(r.events, now, f.io());
                         if (failure) out << '\n' << print::failure_text(*failure);
                       },
                   .document =
                       [&] {
                         auto j = show_gpus ? print::job_json_with_gpus(r.job, gpus) : r.job.to_json();
                         if (show_gpus) print::add_gpu_history(j, history);
                         queue.add_to(j);
                         if (o.events) j["events"] = print::events_json(r.events);
                         if (failure) j["failure"] = print::failure_json(*failure);
                         if (!r.pending.empty()) j["pending"] = r.pending.to_json();
                         return j;
                       },
                   .names = [&] { return print::job_names({r.job}); }},
                  f.io().out());
}

void setup_get(CLI::App& root, Factory& f, RunFn<GetOptions> run) {
  auto opts = std::make_shared<GetOptions>();
  auto* cmd = root.add_subcommand("get", "Show one training job: status, instances, TensorBoard");
  cmd->add_option("name", opts->name, "Job name")->required();
  cmd->add_flag("-e,--events", opts->events, "Also show the events of the job and its instances");
  cmd->add_flag("-g,--gpus", opts->gpus, "Also show the GPUs of its instances: utilisation and memory (Prometheus)");
  add_idle_flags(cmd, opts->idle_flags);
  add_type_option(cmd, opts->type, "Job type, when two kinds have a job of this name");
  add_output_option(cmd, opts->output, GetOptions::kFormats);
  set_examples(cmd,
               "  # Status, instances and TensorBoard URL of a job\n"
               "  trainctl get pytorch-dist\n"
               "  # With events (why is it PENDING?)\n"
               "  trainctl get pytorch-dist -e\n"
               "  # With the utilisation and memory of each GPU\n"
               "  trainctl get pytorch-dist -g\n"
               "  # ... and their utilisation over the last 30 minutes, one column a minute\n"
               "  trainctl get pytorch-dist -g --idle-window 30m\n"
               "  # An MPI job whose name is also used by a PyTorch job\n"
               "  trainctl get pytorch-4-vgg16 --type mpijob\n"
               "  # The chief's node IP, for scripts\n"
               "  trainctl get pytorch-dist -o json | jq -r .nodeIP\n");
  bind_run(cmd, f, [opts, &f, run = std::move(run)] {
    complete_get(*opts);
    run(*opts, f);
  });
}

}  // namespace trainctl
