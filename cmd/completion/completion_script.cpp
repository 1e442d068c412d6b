#include "cmd/completion/completion_script.h"

#include <CLI/CLI.hpp>

#include "cmd/completion/complete_engine.h"

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

std::string word_walk(const std::string& first, const std::string& end, const std::string& key) {
  return std::string() + "    for ((i = " + first + "; i < " + end +
         "; i++)); do\n"
         "        w=${words[i]}\n"
         "        if [[ -n $pending ]]; then\n"
         "            pending=\n"
         "            continue\n"
         "        fi\n"
         "        if [[ -z $dashdash && $w == -- ]]; then\n"
         "            dashdash=1\n"
         "            continue\n"
         "        fi\n"
         "        if [[ -z $dashdash && $w == -?* ]]; then\n"
         "            if [[ $w != *=* && \" ${__trainctl_value_flags[$cmdpath]} \" == *\" $w \"* ]]; then\n"
         "                pending=$w\n"
         "            fi\n"
         "            continue\n"
         "        fi\n"
         "        if [[ -z $dashdash && -n ${__trainctl_children[" +
         key +
         "]} ]]; then\n"
         "            cmdpath=\"$cmdpath ${__trainctl_children[" +
         key +
         "]}\"\n"
         "        fi\n"
         "    done\n";
}

std::string join_words(const std::vector<std::string>& words) {
  std::string s;
  for (const auto& w : words) s += (s.empty() ? "" : " ") + w;
  return s;
}

void write_shared_tables(std::ostream& s, const std::vector<CommandData>& data, const TableSyntax& syntax) {
  auto line = [&](const std::string& key, const std::string& value) {
    s << "    " << syntax.entry(key, value) << "\n";
  };
  auto open = [&](const char* name, bool first) {
    s << (first ? "" : ")\n") << syntax.declare << name << "=(\n";
  };
  open("__trainctl_commands", true);
  for (const auto& d : data) {
    std::vector<std::string> names;
    for (const auto& [n, help] : d.subcommands) names.push_back(n);
    if (!names.empty()) line(shell_quote(d.path), shell_quote(join_words(names)));
  }
  open("__trainctl_aliases", false);
  for (const auto& d : data)
    if (!d.aliases.empty()) line(shell_quote(d.path), shell_quote(join_words(d.aliases)));
  open("__trainctl_children", false);
  for (const auto& d : data)
    for (const auto& [word, name] : d.children) line(shell_quote(d.path + " " + word), name);
  open("__trainctl_flags", false);
  for (const auto& d : data) {
    std::vector<std::string> names;
    for (const auto& f : d.flags)
      for (const auto& n : f.names) names.push_back(n);
    line(shell_quote(d.path), shell_quote(join_words(names)));
  }
  open("__trainctl_value_flags", false);
  for (const auto& d : data) line(shell_quote(d.path), shell_quote(join_words(d.value_flags)));
  open("__trainctl_values", false);
  for (const auto& d : data)
    for (const auto& f : d.flags)
      if (!f.values.empty())
        for (const auto& n : f.names) line(shell_quote(d.path + " " + n), shell_quote(join_words(f.values)));
}

}  // namespace trainctl::completion
