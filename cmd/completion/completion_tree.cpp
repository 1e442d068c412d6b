#include "cmd/completion/completion_tree.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>

namespace trainctl::completion {

namespace {

bool is_word(const std::string& w) {
  if (w.empty() || !std::isalnum(static_cast<unsigned char>(w.front()))) return false;
  return std::all_of(w.begin(), w.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
  });
}

// "N", "NAME": a placeholder, not a literal value.
bool is_placeholder(const std::string& w) {
  bool letter = false;
  for (char c : w) {
    if (std::islower(static_cast<unsigned char>(c))) return false;
    if (std::isupper(static_cast<unsigned char>(c))) letter = true;
  }
  return letter;
}

// Splits at top-level (outside parentheses) occurrences of ", ", ", or " and " or ".
std::vector<std::string> split_items(const std::string& s) {
  std::vector<std::string> items;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '(') ++depth;
    if (s[i] == ')') --depth;
    if (depth != 0) continue;
    size_t sep = 0;
    if (s.compare(i, 5, ", or ") == 0)
      sep = 5;
    else if (s.compare(i, 2, ", ") == 0)
      sep = 2;
    else if (s.compare(i, 4, " or ") == 0)
      sep = 4;
    if (sep == 0) continue;
    items.push_back(s.substr(start, i - start));
    start = i + sep;
    i = start - 1;
  }
  items.push_back(s.substr(start));
  return items;
}

// One item: WORD or WORD (ALIAS, ALIAS) or WORD (default ...). False when it is not one.
bool parse_item(const std::string& item, std::vector<std::string>& out) {
  const size_t paren = item.find(" (");
  const std::string word = item.substr(0, paren);
  if (!is_word(word)) return false;
  if (!is_placeholder(word)) out.push_back(word);
  if (paren == std::string::npos) return true;
  if (item.back() != ')') return false;
  const std::string inner = item.substr(paren + 2, item.size() - paren - 3);
  if (inner.rfind("default", 0) == 0 || inner == "repeatable") return true;
  for (const auto& alias : split_items(inner)) {
    if (!is_word(alias)) return false;
    if (!is_placeholder(alias)) out.push_back(alias);
  }
  return true;
}

void add_unique(std::vector<std::string>& into, const std::vector<std::string>& values) {
  for (const auto& v : values)
    if (std::find(into.begin(), into.end(), v) == into.end()) into.push_back(v);
}

}  // namespace

std::vector<std::string> values_from_help(const std::string& help) {
  // Rule 2: the text after the last top-level ": " is a list of words.
  int depth = 0;
  size_t colon = std::string::npos;
  for (size_t i = 0; i + 1 < help.size(); ++i) {
    if (help[i] == '(') ++depth;
    if (help[i] == ')') --depth;
    if (depth == 0 && help[i] == ':' && help[i + 1] == ' ') colon = i;
  }
  if (colon != std::string::npos) {
    std::string list = help.substr(colon + 2);
    while (!list.empty() && (list.back() == '.' || list.back() == ' ')) list.pop_back();
    std::vector<std::string> values;
    bool ok = !list.empty();
    for (const auto& item : split_items(list)) ok = ok && parse_item(item, values);
    if (ok && !values.empty()) return values;
  }
  // Rule 3: "none: run without ..." names one value.
  const size_t first_colon = help.find(": ");
  if (first_colon != std::string::npos && first_colon > 0) {
    const std::string word = help.substr(0, first_colon);
    if (is_word(word) && std::all_of(word.begin(), word.end(), [](char c) {
          return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) ||
                 c == '-';
        }))
      return {word};
  }
  return {};
}

std::vector<std::string> option_values(CLI::Option& option) {
  std::vector<std::string> values;
  for (int i = 0;; ++i) {
    CLI::Validator* v = nullptr;
    try {
      v = option.get_validator(i);
    } catch (const CLI::OptionNotFound&) {
      break;
    }
    const std::string d = v->get_description();
    if (d.size() < 2 || d.front() != '{' || d.back() != '}') continue;
    std::vector<std::string> set;
    for (const auto& item : CLI::detail::split(d.substr(1, d.size() - 2), ','))
      set.push_back(CLI::detail::trim_copy(item));
    add_unique(values, set);
  }
  if (values.empty()) values = values_from_help(option.get_description());
  return values;
}

bool is_hidden(const CLI::App& app) { return app.get_group().empty(); }

std::vector<CLI::App*> visible_subcommands(CLI::App& app) {
  return app.get_subcommands([](CLI::App* sub) { return !is_hidden(*sub); });
}

std::vector<std::string> command_names(const CLI::App& app) {
  std::vector<std::string> names{app.get_name()};
  for (const auto& a : app.get_aliases()) names.push_back(a);
  return names;
}

std::string command_path(const CLI::App& app) {
  std::string path = app.get_name();
  for (const CLI::App* p = app.get_parent(); p; p = p->get_parent()) path = p->get_name() + " " + path;
  return path;
}

std::vector<CLI::App*> all_commands(CLI::App& root) {
  std::vector<CLI::App*> out{&root};
  for (CLI::App* sub : visible_subcommands(root)) {
    auto below = all_commands(*sub);
    out.insert(out.end(), below.begin(), below.end());
  }
  return out;
}

std::vector<FlagInfo> own_flags(CLI::App& app, bool include_hidden) {
  std::vector<FlagInfo> out;
  for (CLI::Option* o : app.get_options([](CLI::Option* opt) { return opt->nonpositional(); })) {
    FlagInfo f;
    f.option = o;
    f.hidden = o->get_group().empty();
    if (f.hidden && !include_hidden) continue;
    for (const auto& s : o->get_snames()) f.names.push_back("-" + s);
    for (const auto& l : o->get_lnames()) f.names.push_back("--" + l);
    f.takes_value = o->get_expected_min() > 0;
    f.help = o->get_description();
    if (f.takes_value) f.values = option_values(*o);
    out.push_back(std::move(f));
  }
  return out;
}

std::vector<FlagInfo> usable_flags(CLI::App& app, bool include_hidden) {
  std::vector<FlagInfo> out = own_flags(app, include_hidden);
  for (CLI::App* p = app.get_parent(); p; p = p->get_parent()) {
    for (auto& f : own_flags(*p, include_hidden)) {
      if (f.option == p->get_help_ptr()) continue;  // -h belongs to each command already
      out.push_back(std::move(f));
    }
  }
  return out;
}

std::vector<CLI::Option*> positionals(CLI::App& app) {
  return app.get_options([](CLI::Option* opt) { return opt->get_positional(); });
}

}  // namespace trainctl::completion
