// The root command: global flags shared by every subcommand, and the wiring of the tree.
#include <CLI/CLI.hpp>

#include <string_view>
#include <utility>

#include "cmd/commands.h"
#include "cmd/config_defaults.h"
#include "cmd/factory.h"
#include "core/errors.h"

namespace trainctl {

namespace {

void setup_root(CLI::App& root, GlobalOptions& g) {
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
  root.add_option("--prometheus", g.prometheus,
                  "Prometheus URL for GPU metrics (default: $TRAINCTL_PROMETHEUS, the config file's, else one found in the cluster)");
}

// The config file's submit defaults (docs/config.md); flags given on the command line win.
void bind_submit_defaults(CLI::App& root, Factory& f) {
  for (CLI::App* submit : root.get_subcommand("submit")->get_subcommands([](CLI::App*) { return true; }))
    bind_config_defaults(*submit, f);
}

using Setup = void (*)(CLI::App&, Factory&);

// The commands that only need themselves in the tree, by every name they answer to.
// Everything else (no command, an unknown one, completion, __complete, __gendocs, which
// read the tree) gets the whole tree.
Setup single_setup(std::string_view name) {
  // Commands with a run seam take it by default (setup_x(parent, f, run = run_x)).
  constexpr Setup list = [](CLI::App& r, Factory& f) { setup_list(r, f); };
  constexpr Setup get = [](CLI::App& r, Factory& f) { setup_get(r, f); };
  constexpr Setup logs = [](CLI::App& r, Factory& f) { setup_logs(r, f); };
  constexpr Setup del = [](CLI::App& r, Factory& f) { setup_delete(r, f); };
  constexpr Setup version = [](CLI::App& r, Factory& f) { setup_version(r, f); };
  constexpr Setup templates = [](CLI::App& r, Factory& f) { setup_templates(r, f); };
  constexpr Setup config = [](CLI::App& r, Factory& f) { setup_config(r, f); };
  constexpr Setup wait = [](CLI::App& r, Factory& f) { setup_wait(r, f); };
  constexpr Setup doctor = [](CLI::App& r, Factory& f) { setup_doctor(r, f); };
  constexpr Setup suspend = [](CLI::App& r, Factory& f) { setup_suspend(r, f); };
  constexpr Setup resume = [](CLI::App& r, Factory& f) { setup_resume(r, f); };
  static constexpr std::pair<std::string_view, Setup> kCommands[] = {
      {"submit", setup_submit}, {"list", list},  {"ls", list},           {"get", get},
      {"logs", logs},           {"log", logs},   {"top", setup_top},     {"data", setup_data},
      {"delete", del},          {"del", del},    {"version", version},   {"templates", templates},
      {"config", config},       {"wait", wait},  {"queue", setup_queue}, {"doctor", doctor},
      {"runtime", setup_runtime},
      {"suspend", suspend},     {"resume", resume},
  };
  for (const auto& [n, setup] : kCommands)
    if (n == name) return setup;
  return nullptr;
}

// The root's options that take a value in the next argument when written without '='.
bool takes_value(std::string_view arg) {
  return arg == "--kubeconfig" || arg == "--config" || arg == "--context" || arg == "-n" || arg == "--namespace" ||
         arg == "--loglevel" || arg == "--request-timeout";
}

// The command the arguments name, skipping the global flags before it; nullptr when the
// whole tree is needed, also for help asked at the root (it lists every command).
Setup invoked_setup(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "-h" || arg == "--help" || arg == "--help-all" || arg == "--") return nullptr;
    if (takes_value(arg)) {
      ++i;
      continue;
    }
    if (!arg.empty() && arg.front() == '-') continue;
    return single_setup(arg);
  }
  return nullptr;
}

}  // namespace

void refuse_empty_values(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--" || arg == "__complete") return;  // a command's own arguments; a word being completed
    if (arg.size() < 4 || arg.substr(0, 2) != "--" || arg.back() != '=' || arg.find('=') != arg.size() - 1)
      continue;
    throw UsageError(std::string(arg) + " has an empty value: give one, as " + std::string(arg) +
                     "VALUE or " + std::string(arg.substr(0, arg.size() - 1)) +
                     " VALUE (written so, the flag would take the next argument as its value)");
  }
}

void setup_all(CLI::App& root, Factory& f, GlobalOptions& g) {
  setup_root(root, g);
  setup_submit(root, f);
  setup_list(root, f);
  setup_get(root, f);
  setup_logs(root, f);
  setup_top(root, f);
  setup_data(root, f);
  setup_queue(root, f);
  setup_runtime(root, f);
  setup_delete(root, f);
  setup_suspend(root, f);
  setup_resume(root, f);
  setup_wait(root, f);
  setup_doctor(root, f);
  setup_completion(root, f);
  setup_version(root, f);
  setup_templates(root, f);
  setup_config(root, f);
  setup_complete(root, f);
  setup_gendocs(root, f);
  bind_submit_defaults(root, f);
}

void setup_for_args(CLI::App& root, Factory& f, GlobalOptions& g, int argc, const char* const* argv) {
  const Setup setup = invoked_setup(argc, argv);
  if (setup == nullptr) {
    setup_all(root, f, g);
    return;
  }
  setup_root(root, g);
  setup(root, f);
  if (setup == &setup_submit) bind_submit_defaults(root, f);
}

}  // namespace trainctl
