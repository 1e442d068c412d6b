// trainctl list: the training jobs of every kind in the namespace (or all namespaces),
// whoever submitted them, newest first.
#include <CLI/CLI.hpp>

#include "cmd/commands.h"
#include "cmd/run.h"
#include "jobs/job_query.h"
#include "jobs/job_views.h"
#include "print/output.h"

namespace trainctl {

namespace {

struct ListOptions {
  bool all_namespaces = false;
  std::string type;
  std::string output;
};

void run_list(const ListOptions& o, Factory& f) {
  using print::OutputFormat;
  const auto format = print::parse_output(
      o.output, {OutputFormat::Wide, OutputFormat::Json, OutputFormat::Yaml, OutputFormat::Name});
  const auto kinds = jobs::kinds_for_type(o.type);
  const std::string ns = o.all_namespaces ? "" : f.namespace_();
  // Only JSON and YAML show instances; without them memory follows jobs, not pods.
  const bool instances = format == OutputFormat::Json || format == OutputFormat::Yaml;
  const auto list = jobs::list_jobs(f.client(), ns, kinds, f.clock()(), instances);
  auto& out = f.io().out();
  switch (format) {
    case OutputFormat::Json:
      jobs::write_jobs_json(out, list);
      break;
    case OutputFormat::Yaml:
      jobs::write_jobs_yaml(out, list);
      break;
    case OutputFormat::Name:
      out << jobs::job_names(list);
      break;
    default:
      jobs::job_list_table(list, o.all_namespaces).render_to(out, f.io());
  }
}

}  // namespace

void setup_list(CLI::App& root, Factory& f) {
  auto opts = std::make_shared<ListOptions>();
  auto* cmd = root.add_subcommand("list", "List training jobs");
  cmd->alias("ls");
  cmd->add_flag("-A,--all-namespaces", opts->all_namespaces, "List jobs in all namespaces");
  cmd->add_flag("--allNamespaces", opts->all_namespaces, "Deprecated spelling of --all-namespaces")
      ->group("");
  cmd->add_option(
      "-T,--type", opts->type,
      "Only jobs of this type: pytorchjob (pytorch, py), mpijob (mpi, mj), volcanojob (volcano, vj)");
  cmd->add_option("-o,--output", opts->output, "Output format: wide (default), json, yaml or name");
  set_examples(cmd,
               "  # Jobs in the current namespace, newest first\n"
               "  trainctl list\n"
               "  # PyTorch jobs in every namespace\n"
               "  trainctl list -A -T pytorch\n"
               "  # Names of running jobs, for scripts\n"
               "  trainctl list -o json | jq -r '.[] | select(.status==\"RUNNING\") | .name'\n");
  bind_run(cmd, f, [opts, &f] { run_list(*opts, f); });
}

}  // namespace trainctl
