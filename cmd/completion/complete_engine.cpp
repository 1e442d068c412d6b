#include "cmd/completion/complete_engine.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <optional>

#include "cmd/completion/completion_tree.h"

namespace trainctl::completion {

namespace {

bool has_prefix(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

bool has_long_name(const FlagInfo& f, const std::string& name) {
  return std::find(f.names.begin(), f.names.end(), "--" + name) != f.names.end();
}

std::optional<FlagInfo> find_flag(CLI::App& cmd, const std::string& name) {
  for (auto& f : usable_flags(cmd, true))
    if (std::find(f.names.begin(), f.names.end(), name) != f.names.end()) return f;
  return std::nullopt;
}

CLI::App* find_subcommand(CLI::App& cmd, const std::string& word) {
  for (CLI::App* sub : cmd.get_subcommands([](CLI::App*) { return true; })) {
    if (is_hidden(*sub)) continue;
    auto names = command_names(*sub);
    if (std::find(names.begin(), names.end(), word) != names.end()) return sub;
  }
  return nullptr;
}

Result filtered(std::vector<std::string> all, const std::string& prefix, int directive, bool sort = false) {
  Result r;
  r.directive = directive;
  if (sort) {
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
  }
  for (auto& c : all)
    if (has_prefix(c, prefix)) r.candidates.push_back(std::move(c));
  return r;
}

// What the words typed so far tell: the command reached, its positional arguments, the
// flag waiting for its value, and the scope of cluster lookups.
struct Walk {
  CLI::App* cmd = nullptr;
  std::vector<std::string> args;
  std::optional<FlagInfo> pending;
  bool after_dashdash = false;
  Scope scope;

  void record(const FlagInfo& f, const std::string& value) {
    if (has_long_name(f, "kubeconfig") || has_long_name(f, "config")) scope.kubeconfig = value;
    if (has_long_name(f, "context")) scope.context = value;
    if (has_long_name(f, "namespace")) scope.namespace_ = value;
    if (has_long_name(f, "type")) scope.type = value;
  }

  void word(const std::string& w) {
    if (pending) {
      record(*pending, w);
      pending.reset();
      return;
    }
    if (!after_dashdash && w == "--") {
      after_dashdash = true;
      return;
    }
    if (!after_dashdash && w.size() > 1 && w[0] == '-') {
      flag_word(w);
      return;
    }
    if (!after_dashdash) {
      if (CLI::App* sub = find_subcommand(*cmd, w)) {
        cmd = sub;
        args.clear();
        return;
      }
    }
    args.push_back(w);
  }

  void flag_word(const std::string& w) {
    if (w[1] == '-') {
      const size_t eq = w.find('=');
      auto f = find_flag(*cmd, w.substr(0, eq));
      if (!f) return;
      if (eq != std::string::npos)
        record(*f, w.substr(eq + 1));
      else if (f->takes_value)
        pending = f;
      return;
    }
    auto f = find_flag(*cmd, w.substr(0, 2));  // -n, -nNS, or bundled short flags
    if (!f || !f->takes_value) return;
    if (w.size() > 2)
      record(*f, w.substr(2));
    else
      pending = f;
  }
};

Result flag_values(const FlagInfo& f, const std::string& prefix, const Walk& walk, ClusterLookup& cluster) {
  if (!f.values.empty()) return filtered(f.values, prefix, kNoFileComp);
  if (has_long_name(f, "namespace"))
    return filtered(cluster.namespaces(walk.scope), prefix, kNoFileComp, true);
  if (has_long_name(f, "context")) return filtered(cluster.contexts(walk.scope), prefix, kNoFileComp, true);
  if (has_long_name(f, "instance")) {
    if (walk.args.empty()) return {{}, kNoFileComp};
    return filtered(cluster.instances(walk.scope, walk.args.front()), prefix, kNoFileComp, true);
  }
  if (has_long_name(f, "data")) {
    auto pvcs = cluster.pvcs(walk.scope);
    for (auto& p : pvcs) p += ':';
    return filtered(std::move(pvcs), prefix, kNoFileComp | kNoSpace, true);
  }
  return {};  // free-form: the shell completes file names
}

Result positional_values(const Walk& walk, const std::string& prefix, ClusterLookup& cluster) {
  size_t index = walk.args.size();
  CLI::Option* target = nullptr;
  for (CLI::Option* p : positionals(*walk.cmd)) {
    const size_t takes = static_cast<size_t>(std::max(1, p->get_expected_max()));
    if (index < takes) {
      target = p;
      break;
    }
    index -= takes;
  }
  if (!target) return {{}, kNoFileComp};
  if (auto values = option_values(*target); !values.empty())
    return filtered(std::move(values), prefix, kNoFileComp);
  if (!is_dynamic_positional(*target)) return {};
  if (has_prefix(target->get_description(), "Job name")) {
    auto names = cluster.jobs(walk.scope);
    std::erase_if(names, [&](const std::string& n) {
      return std::find(walk.args.begin(), walk.args.end(), n) != walk.args.end();
    });
    return filtered(std::move(names), prefix, kNoFileComp, true);
  }
  return filtered(cluster.nodes(walk.scope), prefix, kNoFileComp, true);
}

}  // namespace

bool is_dynamic_positional(const CLI::Option& p) {
  return has_prefix(p.get_description(), "Job name") || p.get_name() == "nodes" || p.get_name() == "node";
}

bool is_dynamic_flag(const std::vector<std::string>& names) {
  for (const char* n : {"--namespace", "--context", "--instance", "--data"})
    if (std::find(names.begin(), names.end(), n) != names.end()) return true;
  return false;
}

Result complete(CLI::App& root, const std::vector<std::string>& words_in, ClusterLookup& cluster) {
  std::vector<std::string> words = words_in;
  if (words.empty()) words.emplace_back();
  Walk walk;
  walk.cmd = &root;
  for (size_t i = 0; i + 1 < words.size(); ++i) walk.word(words[i]);
  const std::string& cur = words.back();

  if (walk.pending) return flag_values(*walk.pending, cur, walk, cluster);
  if (!walk.after_dashdash && has_prefix(cur, "--") && cur.find('=') != std::string::npos) {
    auto f = find_flag(*walk.cmd, cur.substr(0, cur.find('=')));
    if (!f || !f->takes_value) return {{}, kNoFileComp};
    return flag_values(*f, cur.substr(cur.find('=') + 1), walk, cluster);
  }
  if (!walk.after_dashdash && has_prefix(cur, "-")) {
    std::vector<std::string> names;
    for (const auto& f : usable_flags(*walk.cmd))
      for (const auto& n : f.names) names.push_back(n);
    return filtered(std::move(names), cur, kNoFileComp);
  }
  const auto subs = visible_subcommands(*walk.cmd);
  if (!subs.empty()) {
    std::vector<std::string> names, aliases;
    for (CLI::App* s : subs) {
      names.push_back(s->get_name());
      for (const auto& a : s->get_aliases()) aliases.push_back(a);
    }
    Result r = filtered(std::move(names), cur, kNoFileComp);
    if (r.candidates.empty()) r = filtered(std::move(aliases), cur, kNoFileComp);
    return r;
  }
  return positional_values(walk, cur, cluster);
}

}  // namespace trainctl::completion
