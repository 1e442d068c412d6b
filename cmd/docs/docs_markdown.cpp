// One Markdown page per command, in the manner of cobra's doc generator.
#include <CLI/CLI.hpp>
#include <sstream>

#include "cmd/completion/completion_tree.h"
#include "cmd/docs/docs_gen.h"

namespace trainctl::docs {

namespace {

std::string file_name(const CLI::App& cmd) {
  std::string p = completion::command_path(cmd);
  for (char& c : p)
    if (c == ' ') c = '_';
  return p + ".md";
}

std::string cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n')
      out += ' ';
    else
      out += c;
  }
  return out;
}

void flag_table(std::ostringstream& s, const std::vector<completion::FlagInfo>& flags) {
  s << "| Flag | Value | Default | Description |\n|---|---|---|---|\n";
  for (const auto& f : flags) {
    std::string names;
    for (const auto& n : f.names) names += (names.empty() ? "" : ", ") + std::string("`") + n + "`";
    const std::string value = value_text(*f.option);
    const std::string def = default_text(*f.option);
    s << "| " << names << " | " << (value.empty() ? "" : "`" + cell(value) + "`") << " | "
      << (def.empty() ? "" : "`" + cell(def) + "`") << " | " << cell(f.help) << " |\n";
  }
}

std::string page(CLI::App& cmd) {
  std::ostringstream s;
  const std::string path = completion::command_path(cmd);
  s << "<!-- Generated from the command tree by `trainctl __gendocs`; do not edit. -->\n\n";
  s << "# " << path << "\n\n" << cmd.get_description() << "\n\n";
  s << "## Usage\n\n```\n" << usage(cmd) << "\n```\n\n";
  if (!cmd.get_aliases().empty()) {
    s << "Aliases:";
    for (const auto& a : cmd.get_aliases()) s << " `" << a << "`";
    s << "\n\n";
  }
  const auto positionals = completion::positionals(cmd);
  if (!positionals.empty()) {
    s << "## Arguments\n\n| Argument | Description |\n|---|---|\n";
    for (CLI::Option* p : positionals) {
      std::string n = p->get_name();
      for (char& c : n) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      s << "| `" << n << (p->get_expected_max() > 1 ? "..." : "") << "` | " << cell(p->get_description())
        << (p->get_required() ? " (required)" : "") << " |\n";
    }
    s << "\n";
  }
  const auto own = completion::own_flags(cmd);
  if (!own.empty()) {
    s << "## Flags\n\n";
    flag_table(s, own);
    s << "\n";
  }
  if (cmd.get_parent()) {
    CLI::App* root = &cmd;
    while (root->get_parent()) root = root->get_parent();
    std::vector<completion::FlagInfo> globals;
    for (auto& f : completion::own_flags(*root))
      if (f.option != root->get_help_ptr()) globals.push_back(std::move(f));
    s << "## Global flags\n\n";
    flag_table(s, globals);
    s << "\n";
  }
  if (const auto ex = examples(cmd); !ex.empty()) s << "## Examples\n\n```\n" << ex << "\n```\n\n";
  if (const auto notes = footer_notes(cmd); !notes.empty()) s << notes << "\n\n";
  const auto subs = completion::visible_subcommands(cmd);
  if (!subs.empty()) {
    s << "## Commands\n\n";
    for (CLI::App* sub : subs)
      s << "* [" << completion::command_path(*sub) << "](" << file_name(*sub) << ") - "
        << sub->get_description() << "\n";
    s << "\n";
  }
  if (cmd.get_parent())
    s << "## See also\n\n* [" << completion::command_path(*cmd.get_parent()) << "]("
      << file_name(*cmd.get_parent()) << ") - " << cmd.get_parent()->get_description() << "\n";
  std::string text = s.str();
  while (text.size() > 1 && text[text.size() - 1] == '\n' && text[text.size() - 2] == '\n') text.pop_back();
  return text;
}

}  // namespace

std::map<std::string, std::string> markdown_pages(CLI::App& root) {
  std::map<std::string, std::string> pages;
  for (CLI::App* cmd : completion::all_commands(root)) pages[file_name(*cmd)] = page(*cmd);
  return pages;
}

}  // namespace trainctl::docs
