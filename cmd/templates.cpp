// trainctl templates export DIR: writes the built-in manifest templates, so that an admin can
// edit copies and use them with --template-dir or TRAINCTL_TEMPLATE_DIR.
#include "render/templates.h"

#include <CLI/CLI.hpp>
#include <memory>

#include "cmd/templates.h"
#include "cmd/run.h"

namespace trainctl {

void run_templates_export(const TemplatesExportOptions& o, Factory& f) {
  for (const auto& p : render::export_templates(o.dir, o.force)) f.io().out() << p << '\n';
}

void setup_templates(CLI::App& root, Factory& f, RunFn<TemplatesExportOptions> run) {
  auto* templates = root.add_subcommand("templates", "Manage the manifest templates used by submit");
  templates->require_subcommand(1);
  auto options = std::make_shared<TemplatesExportOptions>();
  auto* exp = templates->add_subcommand("export", "Write the built-in templates into a directory");
  exp->add_option("dir", options->dir, "Directory to write to (created if missing)")->required();
  exp->add_flag("--force", options->force, "Overwrite existing files");
  set_examples(exp,
               "  trainctl templates export ./my-templates\n"
               "  TRAINCTL_TEMPLATE_DIR=./my-templates trainctl submit mpi ...\n");
  bind_run(exp, f, [options, &f, run = std::move(run)] { run(*options, f); });
}

}  // namespace trainctl
