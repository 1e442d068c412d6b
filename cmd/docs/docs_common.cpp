// Pieces of the generated docs shared by the Markdown pages and the man page.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>

#include "cmd/completion/completion_tree.h"
#include "cmd/docs/docs_gen.h"
#include "core/errors.h"

namespace trainctl::docs {

namespace fs = std::filesystem;

namespace {

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw Error("cannot write " + path.string());
}

}  // namespace

std::string usage(CLI::App& cmd) {
  std::string u = completion::command_path(cmd);
  if (!completion::visible_subcommands(cmd).empty()) return u + " COMMAND";
  if (!completion::own_flags(cmd).empty() || cmd.get_parent()) u += " [flags]";
  for (CLI::Option* p : completion::positionals(cmd)) {
    std::string n = upper(p->get_name());
    if (p->get_expected_max() > 1) n += "...";
    u += " " + (p->get_required() ? n : "[" + n + "]");
  }
  return u;
}

std::string examples(const CLI::App& cmd) {
  const std::string f = cmd.get_footer();
  const std::string head = "Examples:\n";
  if (f.rfind(head, 0) != 0) return "";
  std::string ex = f.substr(
      head.size(), f.find("\n\n") == std::string::npos ? std::string::npos : f.find("\n\n") - head.size());
  while (!ex.empty() && ex.back() == '\n') ex.pop_back();
  return ex;
}

std::string footer_notes(const CLI::App& cmd) {
  const std::string f = cmd.get_footer();
  if (f.rfind("Examples:\n", 0) != 0) return f;
  const size_t gap = f.find("\n\n");
  return gap == std::string::npos ? "" : f.substr(gap + 2);
}

std::string value_text(CLI::Option& option) {
  if (option.get_expected_min() == 0) return option.get_expected_max() > 0 ? "[=value]" : "";
  const auto values = completion::option_values(option);
  if (!values.empty()) {
    std::string s;
    for (const auto& v : values) s += (s.empty() ? "" : "|") + v;
    return s;
  }
  std::string type = option.get_type_name();
  if (type.rfind("INT", 0) == 0 || type.rfind("UINT", 0) == 0)
    type = "int";
  else if (type.rfind("FLOAT", 0) == 0)
    type = "number";
  else
    type = "string";
  if (option.get_expected_max() > 1 || option.get_multi_option_policy() == CLI::MultiOptionPolicy::TakeAll)
    type += "s";
  return type;
}

std::string default_text(const CLI::Option& option) { return option.get_default_str(); }

std::vector<std::string> write_docs(CLI::App& root, const std::string& dir) {
  std::vector<std::string> written;
  const fs::path commands = fs::path(dir) / "commands";
  const fs::path man = fs::path(dir) / "man";
  fs::create_directories(commands);
  fs::create_directories(man);
  const auto pages = markdown_pages(root);
  for (const auto& entry : fs::directory_iterator(commands)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("trainctl", 0) == 0 && entry.path().extension() == ".md" && !pages.count(name))
      fs::remove(entry.path());
  }
  for (const auto& [name, text] : pages) {
    write_file(commands / name, text);
    written.push_back((commands / name).string());
  }
  write_file(man / "trainctl.1", man_page(root));
  written.push_back((man / "trainctl.1").string());
  return written;
}

}  // namespace trainctl::docs
