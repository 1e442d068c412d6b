// The root command: global flags shared by every subcommand, and the wiring of the tree.
#include <CLI/CLI.hpp>

#include "cmd/commands.h"
#include "cmd/config_defaults.h"
#include "cmd/factory.h"

namespace trainctl {

void setup_all(CLI::App& root, Factory& f, GlobalOptions& g) {
  root.require_subcommand(1);
  root.fallthrough();
  root.footer(
      "Examples:\n"
      "  trainctl submit pytorch --name=mnist --gpus=1 --workers=3 --image=pytorch/pytorch \"python train.py\"\n"
      "  trainctl list\n"
      "  trainctl get mnist\n"
      "  trainctl logs mnist -f\n"
      "  trainctl top node\n\n"
      "Exit codes: 0 ok, 1 error, 2 usage, 3 not found, 4 auth, 5 job failed, 6 timeout, 130 interrupted.");

  root.add_option("--kubeconfig", g.kubeconfig, "Path to the kubeconfig file (default: $KUBECONFIG, then ~/.kube/config)");
  root.add_option("--config", g.kubeconfig, "Arena's name for --kubeconfig")->group("");
  root.add_option("--context", g.context, "The kubeconfig context to use");
  root.add_option("-n,--namespace", g.namespace_, "The namespace (default: the config file's, then the context's, then \"default\")");
  root.add_option("--loglevel", g.loglevel, "Log level: debug, info, warn or error")
      ->check(CLI::IsMember({"debug", "info", "warn", "warning", "error"}));
  root.add_flag("-v,--verbose", g.verbose, "More logging: -v info, -vv debug");
  root.add_option("--request-timeout", g.request_timeout, "Timeout of each API request, e.g. 30s; 0 for none");
  root.add_flag("--no-color", g.no_color, "Never colour the output (NO_COLOR does the same)");

  setup_submit(root, f);
  setup_list(root, f);
  setup_get(root, f);
  setup_logs(root, f);
  setup_top(root, f);
  setup_data(root, f);
  setup_delete(root, f);
  setup_completion(root, f);
  setup_version(root, f);
  setup_templates(root, f);
  setup_config(root, f);
  setup_complete(root, f);
  setup_gendocs(root, f);
  // The config file's submit defaults (docs/config.md); flags given on the command line win.
  for (CLI::App* submit : root.get_subcommand("submit")->get_subcommands([](CLI::App*) { return true; })) bind_config_defaults(*submit, f);
}

}  // namespace trainctl
