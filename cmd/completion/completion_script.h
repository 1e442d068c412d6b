// Completion scripts for bash, zsh and fish, generated from the command tree. Each script
// holds the static part (commands, aliases, flags, enumerated values) as tables and asks
// `trainctl __complete` for the dynamic part (names from the cluster or kubeconfig).
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "cmd/completion/completion_tree.h"

namespace trainctl::completion {

// One command of the tree, flattened for a script.
struct CommandData {
  std::string path;                                              // "trainctl submit pytorch"
  std::vector<std::pair<std::string, std::string>> subcommands;  // visible: name, help
  std::vector<std::string> aliases;                              // of those subcommands
  std::vector<std::pair<std::string, std::string>> children;     // every name or alias -> name
  std::vector<FlagInfo> flags;           // visible flags usable here (own and inherited)
  std::vector<std::string> value_flags;  // names of all flags taking a value, hidden ones too
  bool has_positional = false;
  bool dynamic_positional = false;
  std::vector<std::string> positional_values;  // enumerated values of the first positional
};

std::vector<CommandData> script_data(CLI::App& root);

std::string bash_script(CLI::App& root);
std::string zsh_script(CLI::App& root);
std::string fish_script(CLI::App& root);

// How a shell writes an associative array: "declare -gA " or "" before the name, and one
// entry from an already-quoted key and value ("[k]=v" in bash, "k v" in zsh).
struct TableSyntax {
  std::string declare;
  std::function<std::string(const std::string& key, const std::string& value)> entry;
};

// Writes the tables bash and zsh share (commands, aliases, children, flags, value_flags,
// values), from "<declare>__trainctl_commands=(" up to the last entry of __trainctl_values;
// the caller closes that table.
void write_shared_tables(std::ostream& s, const std::vector<CommandData>& data, const TableSyntax& syntax);

// The loop the bash and zsh engines run over the words before the cursor, words[first] up to
// words[end] (not included): a value flag's value is skipped, `--` ends the flags, and a word
// naming a child command moves $cmdpath down the tree. `key` is the shell's subscript for
// "$cmdpath $w" in an associative array (bash quotes it, zsh must not).
std::string word_walk(const std::string& first, const std::string& end, const std::string& key);

// The words separated by single spaces.
std::string join_words(const std::vector<std::string>& words);

// 'text' quoted for any of the three shells (single quotes; ' written as '\'' or \').
std::string shell_quote(const std::string& text);

}  // namespace trainctl::completion
