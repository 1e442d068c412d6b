// Reading the command tree (CLI::App) for completion scripts, `__complete` and generated
// docs. Nothing here knows a particular command: commands, aliases, flags and the values of
// enumerated flags all come from what the setup_* functions registered.
//
// Values of an enumerated option come from, in order:
//   1. a CLI::IsMember check on the option (`->check(CLI::IsMember({"a", "b"}))`);
//   2. its help text, when that ends in a list after a colon: "Output format: wide
//      (default), json, yaml or name" gives wide json yaml name; parenthesised words are
//      aliases ("pytorchjob (pytorch, py)") unless they start with "default"; all-caps
//      words are placeholders ("auto, cpu, gpu or N" gives auto cpu gpu);
//   3. a help text that starts with one lower-case word and a colon names that one value
//      ("none: run without the training-operator").
#pragma once

#include <string>
#include <vector>

#include "cmd/cli_fwd.h"

namespace trainctl::completion {

// A visible (non-hidden) option or flag of one command.
struct FlagInfo {
  CLI::Option* option = nullptr;
  std::vector<std::string> names;  // "-o", "--output"; short names first
  bool takes_value = false;        // a flag needs no word; an option takes the next one
  bool hidden = false;
  std::string help;
  std::vector<std::string> values;  // enumerated values; empty when free-form
};

bool is_hidden(const CLI::App& app);
// The visible subcommands of `app`, in registration order.
std::vector<CLI::App*> visible_subcommands(CLI::App& app);
// Name and aliases of a command.
std::vector<std::string> command_names(const CLI::App& app);
// "trainctl submit pytorch"
std::string command_path(const CLI::App& app);
// Every command of the tree (depth first, parents before children), hidden ones left out.
std::vector<CLI::App*> all_commands(CLI::App& root);

// The named options of `app` itself (not inherited); hidden ones only when asked.
std::vector<FlagInfo> own_flags(CLI::App& app, bool include_hidden = false);
// The options a word of `app` may use: its own and those of every ancestor (global flags).
std::vector<FlagInfo> usable_flags(CLI::App& app, bool include_hidden = false);
// Positional arguments of `app`.
std::vector<CLI::Option*> positionals(CLI::App& app);

// The enumerated values of an option (see the header comment); empty when free-form.
std::vector<std::string> option_values(CLI::Option& option);
// The list of values in a help text, rules 2 and 3 above (exposed for tests).
std::vector<std::string> values_from_help(const std::string& help);

}  // namespace trainctl::completion
