// The trainctl(1) man page (roff, man macros): every command in one page.
#include <CLI/CLI.hpp>
#include <sstream>

#include "cmd/completion/completion_tree.h"
#include "cmd/docs/docs_gen.h"
#include "core/version.h"
#include "jobs/kind.h"

namespace trainctl::docs {

namespace {

// Escapes text for roff: backslashes, hyphens (so that flags copy and paste), and a
// leading '.' or '\'' that would start a request.
std::string roff(const std::string& text) {
  std::string out;
  bool line_start = true;
  for (char c : text) {
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\')
      out += "\\e";
    else if (c == '-')
      out += "\\-";
    else
      out += c;
    line_start = c == '\n';
  }
  return out;
}

void flags(std::ostringstream& s, const std::vector<completion::FlagInfo>& list) {
  for (const auto& f : list) {
    s << ".TP\n";
    std::string names;
    for (const auto& n : f.names)
      names += (names.empty() ? "" : ", ") + std::string("\\fB") + roff(n) + "\\fR";
    const std::string value = value_text(*f.option);
    if (!value.empty()) names += " \\fI" + roff(value) + "\\fR";
    s << names << "\n" << roff(f.help);
    if (const auto def = default_text(*f.option); !def.empty()) s << " (default: " << roff(def) << ")";
    s << "\n";
  }
}

void preformatted(std::ostringstream& s, const std::string& text) {
  s << ".PP\n.RS 4\n.nf\n" << roff(text) << "\n.fi\n.RE\n";
}

}  // namespace

std::string man_page(CLI::App& root) {
  std::ostringstream s;
  s << ".\\\" Generated from the command tree by `trainctl __gendocs`; do not edit.\n";
  s << ".TH TRAINCTL 1 \"\" \"trainctl " << roff(version_info().version) << "\" \"trainctl manual\"\n";
  s << ".SH NAME\ntrainctl \\- " << roff(root.get_description()) << "\n";
  s << ".SH SYNOPSIS\n.B trainctl\n[\\fIglobal flags\\fR] \\fICOMMAND\\fR [\\fIflags\\fR] "
       "[\\fIarguments\\fR]\n";
  s << ".SH DESCRIPTION\n"
       "trainctl submits distributed training jobs ("
    << jobs::kind_titles_text()
    << ")\n"
       "to Kubernetes and inspects them: list, get, logs, top, delete.\n"
       "Every command line of Arena runs unchanged with \\fBtrainctl\\fR in place of \\fBarena\\fR.\n";
  s << ".SH GLOBAL FLAGS\n";
  std::vector<completion::FlagInfo> globals;
  for (auto& f : completion::own_flags(root)) globals.push_back(std::move(f));
  flags(s, globals);
  s << ".SH COMMANDS\n";
  for (CLI::App* cmd : completion::all_commands(root)) {
    if (cmd == &root) continue;
    s << ".SS " << roff(completion::command_path(*cmd)) << "\n" << roff(cmd->get_description()) << "\n";
    if (!cmd->get_aliases().empty()) {
      s << ".br\nAliases:";
      for (const auto& a : cmd->get_aliases()) s << " \\fB" << roff(a) << "\\fR";
      s << "\n";
    }
    preformatted(s, usage(*cmd));
    for (CLI::Option* p : completion::positionals(*cmd)) {
      std::string n = p->get_name();
      for (char& c : n) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      s << ".TP\n\\fI" << roff(n) << "\\fR\n" << roff(p->get_description()) << "\n";
    }
    auto own = completion::own_flags(*cmd);
    std::erase_if(own, [&](const completion::FlagInfo& f) { return f.option == cmd->get_help_ptr(); });
    flags(s, own);
    if (const auto ex = examples(*cmd); !ex.empty()) {
      s << ".PP\nExamples:\n";
      preformatted(s, ex);
    }
  }
  s << ".SH FILES\n"
       ".TP\n\\fI~/.config/trainctl/config.yaml\\fR\n"
       "Defaults for the namespace and submit flags (\\fB$XDG_CONFIG_HOME\\fR is respected); see\n"
       "\\fBtrainctl config view\\fR and docs/config.md.\n"
       ".TP\n\\fI~/.kube/config\\fR\nThe kubeconfig, read as kubectl reads it.\n";
  s << ".SH ENVIRONMENT\n"
       ".TP\n\\fBKUBECONFIG\\fR\nColon-separated kubeconfig files, merged as kubectl merges them.\n"
       ".TP\n\\fBTRAINCTL_CONFIG\\fR\nPath of the config file, instead of the default.\n"
       ".TP\n\\fBTRAINCTL_TEMPLATE_DIR\\fR\nDirectory of manifest templates overriding the built-in ones.\n"
       ".TP\n\\fBNO_COLOR\\fR\nNever colour the output.\n";
  if (const auto notes = footer_notes(root); !notes.empty()) s << ".SH EXIT STATUS\n" << roff(notes) << "\n";
  s << ".SH SEE ALSO\n\\fBkubectl\\fR(1)\n";
  return s.str();
}

}  // namespace trainctl::docs
