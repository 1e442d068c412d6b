// Reference docs generated from the command tree: a Markdown page per command
// (docs/commands/trainctl_<path>.md) and the trainctl(1) man page (docs/man/trainctl.1).
// `trainctl __gendocs DIR` writes them; tests fail when the committed copies are stale.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "cmd/cli_fwd.h"

namespace trainctl::docs {

// "trainctl submit pytorch [flags] [COMMAND...]"
std::string usage(CLI::App& cmd);
// The "Examples:" part of a command's footer (without that heading), and the rest of it.
std::string examples(const CLI::App& cmd);
std::string footer_notes(const CLI::App& cmd);
// What a flag takes, for tables: "" for a flag, "json|yaml" for enumerated values, else
// a placeholder from the type ("string", "int", "strings" for repeatable ones).
std::string value_text(CLI::Option& option);
// Default value as help shows it, or "".
std::string default_text(const CLI::Option& option);

// file name -> content, e.g. "trainctl_submit_pytorch.md".
std::map<std::string, std::string> markdown_pages(CLI::App& root);
std::string man_page(CLI::App& root);

// Writes DIR/commands/*.md (removing trainctl_*.md pages of commands that no longer exist)
// and DIR/man/trainctl.1; returns the paths written.
std::vector<std::string> write_docs(CLI::App& root, const std::string& dir);

}  // namespace trainctl::docs
