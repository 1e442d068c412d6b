// trainctl get: one training job: status, trainer, duration, instances with node and GPUs,
// the TensorBoard URL, and with -e the events of the job and its pods.
#include "cmd/get.h"

#include <CLI/CLI.hpp>

#include "cmd/run.h"
#include "jobs/job_query.h"
#include "jobs/kind.h"
#include "print/job_views.h"
#include "print/print_as.h"

namespace trainctl {

void run_get(const GetOptions& o, Factory& f) {
  using print::OutputFormat;
  const auto format = print::parse_output(o.output, GetOptions::kFormats);
  jobs::GetOptions q;
  q.ns = f.namespace_();
  q.name = o.name;
  q.kinds = jobs::kinds_for_type(o.type);
  q.tensorboard = true;
  q.events = o.events;
  const auto now = f.clock()();
  const auto r = jobs::get_job(f.client(), q, now);
  print::print_as(format,
                  {.human =
                       [&](std::ostream& out) {
                         out << print::job_details(r.job, f.io());
                         if (o.events) out << print::events_view(r.events, now, f.io());
                       },
                   .document =
                       [&] {
                         auto j = r.job.to_json();
                         if (o.events) j["events"] = print::events_json(r.events);
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
  add_type_option(cmd, opts->type, "Job type, when two kinds have a job of this name");
  add_output_option(cmd, opts->output, GetOptions::kFormats);
  set_examples(cmd,
               "  # Status, instances and TensorBoard URL of a job\n"
               "  trainctl get pytorch-dist\n"
               "  # With events (why is it PENDING?)\n"
               "  trainctl get pytorch-dist -e\n"
               "  # An MPI job whose name is also used by a PyTorch job\n"
               "  trainctl get pytorch-4-vgg16 --type mpijob\n"
               "  # The chief's node IP, for scripts\n"
               "  trainctl get pytorch-dist -o json | jq -r .nodeIP\n");
  bind_run(cmd, f, [opts, &f, run = std::move(run)] { run(*opts, f); });
}

}  // namespace trainctl
