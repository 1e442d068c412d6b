// trainctl config view: the settings trainctl uses from the config file (docs/config.md),
// with where they came from and the namespace commands act in.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <memory>

#include "cmd/config_view.h"
#include "cmd/run.h"
#include "core/errors.h"
#include "print/output.h"

namespace trainctl {

void run_config_view(const ConfigViewOptions& o, Factory& f) {
  using print::OutputFormat;
  const auto format = print::parse_output(o.output, ConfigViewOptions::kFormats);
  const UserConfig& c = f.user_config();
  nlohmann::ordered_json j;
  bool explicit_path = false;
  const std::string path = user_config_path({}, &explicit_path);
  j["path"] = path;
  j["found"] = !c.path.empty();
  // The namespace commands act in: -n, the file, the kubeconfig context, "default".
  try {
    j["effectiveNamespace"] = f.namespace_();
  } catch (const Error& e) {
    j["effectiveNamespace"] = nullptr;
  }
  if (const char* env = std::getenv("TRAINCTL_TEMPLATE_DIR"); env && *env)
    j["effectiveTemplateDir"] = env;
  else if (!c.template_dir.empty())
    j["effectiveTemplateDir"] = c.template_dir;
  j["settings"] = c.to_json();
  if (format == OutputFormat::Json)
    f.io().out() << print::to_json(j);
  else
    f.io().out() << print::to_yaml(j);
}

void setup_config(CLI::App& root, Factory& f, RunFn<ConfigViewOptions> run) {
  auto* config =
      root.add_subcommand("config", "Show the trainctl config file (~/.config/trainctl/config.yaml)");
  config->require_subcommand(1);
  set_examples(config, "  trainctl config view\n");
  auto opts = std::make_shared<ConfigViewOptions>();
  auto* view = config->add_subcommand(
      "view", "Print the settings read from the config file and the effective namespace");
  add_output_option(view, opts->output, ConfigViewOptions::kFormats);
  set_examples(view,
               "  trainctl config view\n"
               "  TRAINCTL_CONFIG=./team.yaml trainctl config view -o json\n");
  bind_run(view, f, [opts, &f, run = std::move(run)] { run(*opts, f); });
}

}  // namespace trainctl
