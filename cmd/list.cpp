// trainctl list: the training jobs of every kind in the namespace (or all namespaces),
// whoever submitted them, newest first.
#include "cmd/list.h"

#include <CLI/CLI.hpp>

#include "cmd/run.h"
#include "jobs/job_query.h"
#include "jobs/kind.h"
#include "print/job_views.h"
#include "print/print_as.h"

namespace trainctl {

void run_list(const ListOptions& o, Factory& f) {
  using print::OutputFormat;
  const auto format = print::parse_output(o.output, ListOptions::kFormats);
  const auto kinds = jobs::kinds_for_type(o.type);
  const std::string ns = o.all_namespaces ? "" : f.namespace_();
  // Only JSON and YAML show instances; without them memory follows jobs, not pods.
  const bool instances = format == OutputFormat::Json || format == OutputFormat::Yaml;
  const auto list = jobs::list_jobs(f.client(), ns, kinds, f.clock()(), instances);
  print::print_as(
      format,
      {.human =
           [&](std::ostream& out) { print::job_list_table(list, o.all_namespaces).render_to(out, f.io()); },
       .stream = [&](std::ostream& out, OutputFormat fmt) { print::write_jobs(out, list, fmt); },
       .names = [&] { return print::job_names(list); }},
      f.io().out());
}

void setup_list(CLI::App& root, Factory& f, RunFn<ListOptions> run) {
  auto opts = std::make_shared<ListOptions>();
  auto* cmd = root.add_subcommand("list", "List training jobs");
  cmd->alias("ls");
  add_job_list_flags(cmd, opts->all_namespaces, opts->type, opts->output, ListOptions::kFormats,
                     "List jobs in all namespaces");
  set_examples(cmd,
               "  # Jobs in the current namespace, newest first\n"
               "  trainctl list\n"
               "  # PyTorch jobs in every namespace\n"
               "  trainctl list -A -T pytorch\n"
               "  # Names of running jobs, for scripts\n"
               "  trainctl list -o json | jq -r '.[] | select(.status==\"RUNNING\") | .name'\n");
  bind_run(cmd, f, [opts, &f, run = std::move(run)] { run(*opts, f); });
}

}  // namespace trainctl
