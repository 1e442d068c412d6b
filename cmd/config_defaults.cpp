#include "cmd/config_defaults.h"

#include <CLI/CLI.hpp>
#include <cstdlib>

#include "cmd/completion/completion_tree.h"
#include "cmd/factory.h"
#include "core/errors.h"

namespace trainctl {

namespace {

// Section names of `submit:` must name a submit command, so that a typo is not ignored.
void check_sections(const CLI::App& cmd, const UserConfig& config) {
  const CLI::App* parent = cmd.get_parent();
  if (!parent) return;
  for (const auto& [section, flags] : config.submit) {
    bool known = false;
    std::string names;
    for (const CLI::App* sibling : parent->get_subcommands({})) {
      for (const auto& n : completion::command_names(*sibling)) {
        known = known || n == section;
        names += (names.empty() ? "" : ", ") + n;
      }
    }
    if (!known)
      throw ConfigError("config file " + config.path + ": unknown submit command \"" + section +
                        "\" (known: " + names + ")");
  }
}

void apply_defaults(CLI::App& cmd, const UserConfig& config) {
  check_sections(cmd, config);
  const auto names = completion::command_names(cmd);
  const FlagDefaults defaults = config.submit_defaults(names);
  auto in_section = [&](const std::string& flag) {
    for (const auto& n : names) {
      auto it = config.submit.find(n);
      if (it != config.submit.end() && it->second.count(flag)) return true;
    }
    return false;
  };
  for (const auto& [flag, values] : defaults) {
    // The template directory: --template-dir, then TRAINCTL_TEMPLATE_DIR, then the file.
    if (flag == "template-dir" && std::getenv("TRAINCTL_TEMPLATE_DIR")) continue;
    CLI::Option* opt = nullptr;
    try {
      opt = cmd.get_option("--" + flag);
    } catch (const CLI::OptionNotFound&) {
      if (!in_section(flag)) continue;  // a top-level key this command has no flag for
      throw ConfigError("config file " + config.path + ": \"" + cmd.get_name() + "\" has no flag --" + flag);
    }
    // A hidden flag (an Arena spelling, or another submit command's, which this one refuses)
    // takes only what the command's own section gives it.
    if (opt->get_group().empty() && !in_section(flag)) continue;
    if (opt->count() > 0 || values.empty()) continue;
    try {
      opt->add_result(values);
      opt->run_callback();
    } catch (const CLI::Error& e) {
      throw ConfigError("config file " + config.path + ": --" + flag + " of \"" + cmd.get_name() +
                        "\": " + e.what());
    }
  }
}

}  // namespace

void bind_config_defaults(CLI::App& cmd, Factory& f) {
  cmd.parse_complete_callback([&cmd, &f] { apply_defaults(cmd, f.user_config()); });
}

}  // namespace trainctl
