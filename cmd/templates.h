// trainctl templates export DIR: writes the built-in manifest templates, so that an admin can
// edit copies and use them with --template-dir or TRAINCTL_TEMPLATE_DIR.
#pragma once

#include <string>

#include "cmd/run.h"

namespace trainctl {

struct TemplatesExportOptions {
  std::string dir;
  bool force = false;
};

void run_templates_export(const TemplatesExportOptions& o, Factory& f);
// Registers `templates` and its `export` on `root`; `run` is what export does once parsed.
void setup_templates(CLI::App& root, Factory& f, RunFn<TemplatesExportOptions> run = run_templates_export);

}  // namespace trainctl
