// trainctl top job: GPUs requested and allocated per job, with the totals of running jobs.
#include <CLI/CLI.hpp>

#include "cmd/commands.h"
#include "cmd/run.h"
#include "jobs/job_query.h"
#include "jobs/job_views.h"
#include "print/output.h"

namespace trainctl {

namespace {

struct TopJobOptions {
  bool all_namespaces = false;
  std::string type;
  std::string output;
};

void run_top_job(const TopJobOptions& o, Factory& f) {
  using print::OutputFormat;
  const auto format =
      print::parse_output(o.output, {OutputFormat::Wide, OutputFormat::Json, OutputFormat::Yaml});
  const std::string ns = o.all_namespaces ? "" : f.namespace_();
  const auto list = jobs::list_jobs(f.client(), ns, jobs::kinds_for_type(o.type), f.clock()());
  auto& out = f.io().out();
  if (format == OutputFormat::Json || format == OutputFormat::Yaml) {
    if (format == OutputFormat::Json)
      jobs::write_jobs_json(out, list);
    else
      jobs::write_jobs_yaml(out, list);
    return;
  }
  out << jobs::top_job_table(list, o.all_namespaces).render(f.io()) << jobs::top_job_footer(list);
}

}  // namespace

void setup_top_job(CLI::App& top, Factory& f) {
  auto opts = std::make_shared<TopJobOptions>();
  auto* cmd = top.add_subcommand("job", "Show GPU requests and allocation per job");
  cmd->add_flag("-A,--all-namespaces", opts->all_namespaces, "Jobs of all namespaces");
  cmd->add_option("-T,--type", opts->type, "Only jobs of this type: pytorchjob, mpijob, volcanojob");
  cmd->add_option("-o,--output", opts->output, "Output format: wide (default), json or yaml");
  set_examples(cmd,
               "  # GPUs of the jobs in the current namespace\n"
               "  trainctl top job\n"
               "  # Across the cluster\n"
               "  trainctl top job -A\n");
  bind_run(cmd, f, [opts, &f] { run_top_job(*opts, f); });
}

}  // namespace trainctl
