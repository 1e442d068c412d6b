#include "submit/submit_kind.h"

#include <algorithm>

#include "core/errors.h"
#include "submit/kinds/kinds.h"

namespace trainctl::submit {

SubmitKind::SubmitKind(const jobs::JobKind& j, Rules r) : job(j), rules(std::move(r)) {}

FlagSet SubmitKind::own_flags(SubmitOptions& o) const {
  o.kind = this;
  FlagSet f;
  add_flags(f, o);
  return f;
}

namespace {

// The flags other commands show that `own` lacks, each with the commands that take it, in the
// order of the registry and of their flags.
std::vector<std::pair<Flag, std::string>> foreign_flags(const SubmitKind& kind, const FlagSet& own) {
  std::vector<std::pair<Flag, std::string>> out;
  for (const SubmitKind* other : submit_commands()) {
    if (other->rules.command == kind.rules.command) continue;
    SubmitOptions scratch;
    const FlagSet theirs = other->own_flags(scratch);
    for (const Flag& flag : theirs.flags()) {
      const std::vector<std::string> names = flag.each_name();
      const bool has_long_name = names.back().rfind("--", 0) == 0;  // not the positional command
      if (flag.hidden || !has_long_name) continue;
      if (std::any_of(names.begin(), names.end(),
                      [&](const std::string& n) { return own.lookup(n) != nullptr; }))
        continue;
      const std::string commands = "submit " + other->rules.command;
      const auto known = std::find_if(
          out.begin(), out.end(), [&](const auto& f) { return f.first.each_name().back() == names.back(); });
      if (known == out.end())
        out.emplace_back(flag, commands);
      else
        known->second += " and " + commands;
    }
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
  if (!o.operator_.empty()) throw UsageError("--operator is only for submit pytorch");
  if (!o.worker_image.empty() && rules.worker_image == WorkerImage::Refused)
    throw UsageError("--worker-image is only for " + submit_commands_where([](const SubmitKind& k) {
                       return k.rules.worker_image != WorkerImage::Refused;
                     }));
  return *this;
}

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
