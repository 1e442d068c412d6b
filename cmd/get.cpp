// trainctl get: one training job: status, trainer, duration, instances with node and GPUs,
// the TensorBoard URL, and with -e the events of the job and its pods.
#include <CLI/CLI.hpp>

#include "cmd/commands.h"
#include "cmd/run.h"
#include "jobs/job_query.h"
#include "jobs/job_views.h"
#include "print/escape.h"
#include "print/output.h"

namespace trainctl {

namespace {

struct GetOptions {
  std::string name;
  std::string type;
  bool events = false;
  std::string output;
};

void run_get(const GetOptions& o, Factory& f) {
  using print::OutputFormat;
  const auto format = print::parse_output(
      o.output, {OutputFormat::Wide, OutputFormat::Json, OutputFormat::Yaml, OutputFormat::Name});
  jobs::GetOptions q;
  q.ns = f.namespace_();
  q.name = o.name;
  q.kinds = jobs::kinds_for_type(o.type);
  q.tensorboard = true;
  q.events = o.events;
  const auto now = f.clock()();
  const auto r = jobs::get_job(f.client(), q, now);
  auto& out = f.io().out();
  if (format == OutputFormat::Json || format == OutputFormat::Yaml) {
    auto j = r.job.to_json();
    if (o.events) j["events"] = jobs::events_json(r.events);
    out << (format == OutputFormat::Json ? print::to_json(j) : print::to_yaml(j));
    return;
  }
  if (format == OutputFormat::Name) {
    out << jobs::job_names({r.job});
    return;
  }
  out << jobs::render_job_details(r.job, f.io());
  if (o.events) out << jobs::render_events(r.events, now, f.io());
}

}  // namespace

void setup_get(CLI::App& root, Factory& f) {
  auto opts = std::make_shared<GetOptions>();
  auto* cmd = root.add_subcommand("get", "Show one training job: status, instances, TensorBoard");
  cmd->add_option("name", opts->name, "Job name")->required();
  cmd->add_option(
      "-T,--type", opts->type,
      "Job type, when two kinds have a job of this name: pytorchjob (py), mpijob (mpi), volcanojob (vj)");
  cmd->add_flag("-e,--events", opts->events, "Also show the events of the job and its instances");
  cmd->add_option("-o,--output", opts->output, "Output format: wide (default), json, yaml or name");
  set_examples(cmd,
               "  # Status, instances and TensorBoard URL of a job\n"
               "  trainctl get pytorch-dist\n"
               "  # With events (why is it PENDING?)\n"
               "  trainctl get pytorch-dist -e\n"
               "  # An MPI job whose name is also used by a PyTorch job\n"
               "  trainctl get pytorch-4-vgg16 --type mpijob\n"
               "  # The chief's node IP, for scripts\n"
               "  trainctl get pytorch-dist -o json | jq -r .nodeIP\n");
  bind_run(cmd, f, [opts, &f] { run_get(*opts, f); });
}

}  // namespace trainctl
