#include "cmd/parse_error.h"

#include <algorithm>
#include <tuple>

#include "core/text.h"
#include "print/escape.h"

namespace trainctl {

namespace {

constexpr size_t kSuggestionsMinimumDistance = 2;  // cobra's default

// The commands of `cmd` to suggest for `typed`: not the hidden ones (cobra
// IsAvailableCommand), by name and aliases.
std::vector<std::string> command_suggestions(CLI::App& cmd, std::string_view typed) {
  std::vector<std::vector<std::string>> candidates;
  for (const CLI::App* sub : cmd.get_subcommands([](CLI::App* s) { return !s->get_group().empty(); })) {
    std::vector<std::string> names{sub->get_name()};
    for (const auto& a : sub->get_aliases()) names.push_back(a);
    candidates.push_back(std::move(names));
  }
  return suggestions_for(typed, candidates);
}

// The long flags `cmd` takes, its own and those of the commands above it (the global flags
// fall through to the root), to suggest for `typed` (without its dashes), as "--name".
std::vector<std::string> flag_suggestions(CLI::App& cmd, std::string_view typed) {
  std::vector<std::vector<std::string>> candidates;
  for (CLI::App* c = &cmd; c != nullptr; c = c->get_parent())
    for (const CLI::Option* o : c->get_options()) {
      if (o->get_group().empty() || o->get_lnames().empty()) continue;  // hidden, or short only
      candidates.push_back(o->get_lnames());
    }
  auto names = suggestions_for(typed, candidates);
  for (auto& n : names) n = "--" + n;
  return names;
}

// The first argument left over on the command line (by the commands, or passed up to the
// root: the commands fall through to it) that is a word, or that is a long flag (its name,
// without its dashes and value); "" when there is none.
std::string left_over_word(CLI::App& root) {
  for (const auto& arg : root.remaining(true))
    if (!arg.empty() && arg.front() != '-') return arg;
  return "";
}
std::string left_over_long_flag(CLI::App& root) {
  for (const auto& arg : root.remaining(true))
    if (arg.size() > 2 && arg.rfind("--", 0) == 0) return arg.substr(2, arg.find('=') - 2);
  return "";
}

}  // namespace

size_t edit_distance(std::string_view a, std::string_view b) {
  const std::string s = ascii_lower(std::string(a)), t = ascii_lower(std::string(b));
  std::vector<size_t> prev(t.size() + 1), cur(t.size() + 1);
  for (size_t j = 0; j <= t.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= s.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= t.size(); ++j)
      cur[j] = s[i - 1] == t[j - 1] ? prev[j - 1] : 1 + std::min({prev[j], cur[j - 1], prev[j - 1]});
    std::swap(prev, cur);
  }
  return prev[t.size()];
}

std::vector<std::string> suggestions_for(std::string_view typed,
                                         const std::vector<std::vector<std::string>>& candidates) {
  const std::string lower = ascii_lower(std::string(typed));
  std::vector<std::tuple<size_t, size_t, std::string>> found;  // distance, order, name
  for (size_t i = 0; i < candidates.size(); ++i) {
    const auto& names = candidates[i];
    if (names.empty()) continue;
    size_t nearest = SIZE_MAX;
    bool prefix = false;
    for (const auto& n : names) {
      nearest = std::min(nearest, edit_distance(typed, n));
      prefix = prefix || ascii_lower(n).rfind(lower, 0) == 0;
    }
    if (nearest <= kSuggestionsMinimumDistance || prefix) found.emplace_back(nearest, i, names.front());
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> names;
  for (auto& [d, i, n] : found) names.push_back(std::move(n));
  return names;
}

std::string parse_error_text(CLI::App& root, const CLI::ParseError& e) {
  // The deepest command that was recognised, for the message and the help hint.
  CLI::App* cmd = &root;
  for (auto subs = cmd->get_subcommands(); !subs.empty(); subs = cmd->get_subcommands()) cmd = subs.front();
  std::string path = cmd->get_name();
  for (CLI::App* p = cmd->get_parent(); p; p = p->get_parent()) path = p->get_name() + " " + path;
  std::string message = e.what();
  std::vector<std::string> suggestions;
  if (const std::string word = left_over_word(root);
      dynamic_cast<const CLI::RequiredError*>(&e) && !word.empty() && !cmd->get_subcommands({}).empty()) {
    // A command that needs a subcommand was given a word that is none.
    message = "unknown command \"" + word + "\" for \"" + path + "\"";
    suggestions = command_suggestions(*cmd, word);
  } else if (const std::string flag = left_over_long_flag(root);
             dynamic_cast<const CLI::ExtrasError*>(&e) && !flag.empty()) {
    message = "unknown flag: --" + flag;  // pflag's words, as kubectl says it
    suggestions = flag_suggestions(*cmd, flag);
  }
  std::string text = "error: " + print::sanitize(message) + "\n";
  // cobra findSuggestions: a blank line, "Did you mean this?", a tab before each name.
  if (!suggestions.empty()) {
    text += "\nDid you mean this?\n";
    for (const auto& s : suggestions) text += "\t" + s + "\n";
    text += "\n";
  }
  return text + "Run '" + path + " --help' for usage.\n";
}

}  // namespace trainctl
