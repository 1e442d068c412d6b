#include "cmd/completion_script.h"

#include <CLI/CLI.hpp>

#include "cmd/complete_engine.h"

namespace trainctl::completion {

std::vector<CommandData> script_data(CLI::App& root) {
  std::vector<CommandData> out;
  for (CLI::App* cmd : all_commands(root)) {
    CommandData d;
    d.path = command_path(*cmd);
    for (CLI::App* sub : visible_subcommands(*cmd)) {
      d.subcommands.emplace_back(sub->get_name(), sub->get_description());
      for (const auto& n : command_names(*sub)) {
        d.children.emplace_back(n, sub->get_name());
        if (n != sub->get_name()) d.aliases.push_back(n);
      }
    }
    d.flags = usable_flags(*cmd);
    for (const auto& f : usable_flags(*cmd, true))
      if (f.takes_value) d.value_flags.insert(d.value_flags.end(), f.names.begin(), f.names.end());
    for (CLI::Option* p : positionals(*cmd)) {
      if (!d.has_positional) d.positional_values = option_values(*p);
      d.has_positional = true;
      d.dynamic_positional = d.dynamic_positional || is_dynamic_positional(*p);
    }
    out.push_back(std::move(d));
  }
  return out;
}

std::string shell_quote(const std::string& text) {
  std::string q = "'";
  for (char c : text) {
    if (c == '\'')
      q += "'\\''";
    else if (c == '\n')
      q += ' ';
    else
      q += c;
  }
  return q + "'";
}

}  // namespace trainctl::completion
