// trainctl data list: the bound PVCs a job can mount with --data PVC:/path.
#include <CLI/CLI.hpp>

#include "cmd/data_list.h"
#include "cmd/run.h"
#include "jobs/cluster/data_volumes.h"
#include "print/print_as.h"
#include "print/volume_views.h"

namespace trainctl {

void run_data_list(const DataListOptions& o, Factory& f) {
  using print::OutputFormat;
  const auto format =
      print::parse_output(o.output, DataListOptions::kFormats);
  const auto volumes = jobs::list_data_volumes(f.client(), o.all_namespaces ? "" : f.namespace_(), f.clock()());
  print::print_as(format,
                  {.human = [&](std::ostream& out) { print::volume_table(volumes, o.all_namespaces).render_to(out, f.io()); },
                   .document = [&] { return print::volumes_json(volumes); }},
                  f.io().out());
}

void setup_data_list(CLI::App& data, Factory& f, RunFn<DataListOptions> run) {
  auto opts = std::make_shared<DataListOptions>();
  auto* cmd = data.add_subcommand("list", "List the PVCs usable with --data");
  cmd->alias("ls");
  add_all_namespaces_flag(cmd, opts->all_namespaces, "PVCs of all namespaces");
  add_output_option(cmd, opts->output, DataListOptions::kFormats);
  set_examples(cmd,
               "  # Volumes to mount with --data NAME:/path\n"
               "  trainctl data list\n"
               "  trainctl data list -A\n");
  bind_run(cmd, f, [opts, &f, run = std::move(run)] { run(*opts, f); });
}

}  // namespace trainctl
