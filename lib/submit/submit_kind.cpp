#include "submit/submit_kind.h"

#include <algorithm>
#include <map>
#include <set>

#include "core/errors.h"
#include "submit/kinds/kinds.h"
#include "submit/server_facts.h"

namespace trainctl::submit {

SubmitKind::SubmitKind(const jobs::JobKind& j, Rules r) : job(j), rules(std::move(r)) {}

FlagSet SubmitKind::own_flags(SubmitOptions& o) const {
  o.kind = this;
  FlagSet f;
  add_flags(f, o);
  return f;
}

namespace {

// The visible long-named flags of every submit command, each with its command, read once per
// process (the positional command and hidden aliases left out).
struct CommandFlag {
  Flag flag;
  std::vector<std::string> names;
  std::string command;
};
const std::vector<CommandFlag>& every_command_flag() {
  static const std::vector<CommandFlag> all = [] {
    std::vector<CommandFlag> out;
    for (const SubmitKind* kind : submit_commands()) {
      SubmitOptions scratch;
      const FlagSet theirs = kind->own_flags(scratch);
      for (const Flag& flag : theirs.flags()) {
        std::vector<std::string> names = flag.each_name();
        const bool has_long_name = names.back().rfind("--", 0) == 0;
        if (!flag.hidden && has_long_name) out.push_back({flag, std::move(names), kind->rules.command});
      }
    }
    return out;
  }();
  return all;
}

// The flags other commands show that `own` lacks, each with the commands that take it, in the
// order of the registry and of their flags.
std::vector<std::pair<Flag, std::string>> foreign_flags(const SubmitKind& kind, const FlagSet& own) {
  std::set<std::string> own_names;
  for (const Flag& flag : own.flags())
    for (std::string& n : flag.each_name()) own_names.insert(std::move(n));
  std::vector<std::pair<Flag, std::string>> out;
  std::map<std::string, size_t> by_name;  // long name -> its place in out
  for (const CommandFlag& c : every_command_flag()) {
    if (c.command == kind.rules.command) continue;
    if (std::any_of(c.names.begin(), c.names.end(), [&](const std::string& n) { return own_names.count(n) > 0; }))
      continue;
    const std::string commands = "submit " + c.command;
    const auto [at, added] = by_name.emplace(c.names.back(), out.size());
    if (added)
      out.emplace_back(c.flag, commands);
    else
      out[at->second].second += " and " + commands;
  }
  return out;
}

}  // namespace

FlagSet SubmitKind::flags(SubmitOptions& o) const {
  FlagSet f = own_flags(o);
  for (auto& [flag, commands] : foreign_flags(*this, f)) {
    const std::vector<std::string> names = flag.each_name();
    ForeignFlag& given = o.foreign_flags.emplace_back(ForeignFlag{names.back(), commands, "", {}});
    Flag copy = flag;
    copy.help.clear();
    copy.required = copy.show_default = false;
    copy.hidden = true;
    if (copy.repeatable)
      copy.into = &given.values;
    else
      copy.into = &given.value;
    f.add(std::move(copy));
  }
  return f;
}

const SubmitKind& SubmitKind::resolve(const SubmitOptions& o) const {
  if (!o.worker_image.empty() && rules.worker_image == WorkerImage::Refused)
    throw UsageError("--worker-image is only for " + submit_commands_where([](const SubmitKind& k) {
                       return k.rules.worker_image != WorkerImage::Refused;
                     }));
  return *this;
}

void SubmitKind::read_crd(const nlohmann::json& crd, ServerFacts& facts) const {
  for (const CrdField& f : rules.crd_fields)
    facts.*(f.fact) = crd_has_field(crd, job.resource.version, f.field);
}

int SubmitKind::default_min_available(const Plan& p) const { return p.expected_pods; }

void SubmitKind::plan_gang(const SubmitOptions& o, Plan& p) const { plan_worker_gang(o, p); }

int SubmitKind::expected_pods(const SubmitOptions& o, const Plan&) const {
  return o.workers + rules.launcher_pods;
}

long long SubmitKind::requested_gpus(const Plan& p) const {
  return static_cast<long long>(p.expected_pods - rules.launcher_pods) * p.gpus;
}

const std::vector<const SubmitKind*>& submit_kinds() {
  static const std::vector<const SubmitKind*> all = {
#define SUBMIT_KIND(name) &kinds::name(),
#include "submit/kinds/kinds.def"
#undef SUBMIT_KIND
  };
  return all;
}

std::vector<const SubmitKind*> submit_commands() {
  std::vector<const SubmitKind*> out;
  for (const SubmitKind* k : submit_kinds())
    if (!k->rules.help.empty()) out.push_back(k);
  return out;
}

const SubmitKind& submit_kind_of_command(const std::string& command) {
  for (const SubmitKind* k : submit_commands())
    if (k->rules.command == command) return *k;
  throw Error("no submit command " + command);
}

std::string submit_commands_where(const std::function<bool(const SubmitKind&)>& pred) {
  std::string out;
  for (const SubmitKind* k : submit_commands())
    if (pred(*k)) out += (out.empty() ? "" : " and ") + std::string("submit ") + k->rules.command;
  return out;
}

const SubmitKind& submit_kind_for(const jobs::JobKind& job) {
  for (const SubmitKind* k : submit_kinds())
    if (&k->job == &job) return *k;
  throw Error("no submit kind for " + job.title);
}

const SubmitKind& command_kind(const SubmitOptions& o) { return o.kind ? *o.kind : kinds::pytorchjob(); }

const SubmitKind& submit_kind_for(const SubmitOptions& o) { return command_kind(o).resolve(o); }

SubmitOptions minimal_options(const SubmitKind& kind, const std::string& name, const std::string& image,
                              const std::string& command) {
  SubmitOptions o;
  FlagSet flags = submit_kind_of_command(kind.rules.command).flags(o);
  for (const KeyValue& kv : kind.rules.minimal_flags) {
    auto* const into = std::get_if<std::string*>(&flags.find(kv.key).into);
    if (!into) throw Error(kv.key + " is not a flag with a text value");
    **into = kv.value;
  }
  o.name = name;
  o.image = image;
  o.command_args = {command};
  return o;
}

}  // namespace trainctl::submit
