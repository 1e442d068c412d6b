// What trainctl prints for a command line it cannot parse: the error, then, as cobra-based
// CLIs (kubectl, gh) answer a mistyped command, "Did you mean this?" with the nearest
// commands (or, for a mistyped flag, the nearest flags of the command), then where help is.
//
//   error: unknown command "lst" for "trainctl"
//
//   Did you mean this?
//   	list
//   	get
//
//   Run 'trainctl --help' for usage.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace trainctl {

// The Levenshtein distance of a and b, ignoring ASCII case (spf13/cobra v1.10.2 cobra.go ld).
size_t edit_distance(std::string_view a, std::string_view b);

// The names to suggest for `typed`: of each candidate (its names: a command's name and
// aliases, a flag's long names), the first name, when one of its names is within edit
// distance 2 of `typed` or starts with it (cobra command.go SuggestionsFor,
// SuggestionsMinimumDistance 2). Nearest first; cobra keeps the commands' order, which is
// the order here among names as near.
std::vector<std::string> suggestions_for(std::string_view typed,
                                         const std::vector<std::vector<std::string>>& candidates);

// The text to print for `e`, thrown while `root` parsed the command line, ending in a newline.
std::string parse_error_text(CLI::App& root, const CLI::ParseError& e);

}  // namespace trainctl
