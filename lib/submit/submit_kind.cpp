#include "submit/submit_kind.h"

#include "core/errors.h"
#include "submit/kinds/kinds.h"

namespace trainctl::submit {

SubmitKind::SubmitKind(jobs::Trainer trainer, Rules r) : job(jobs::kind_for(trainer)), rules(std::move(r)) {}
SubmitKind::SubmitKind(const jobs::JobKind& j, Rules r) : job(j), rules(std::move(r)) {}

FlagSet SubmitKind::flags(SubmitOptions& o) const {
  o.trainer = jobs::trainer_of(job);
  FlagSet f;
  add_flags(f, o);
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

const SubmitKind& submit_kind_for(jobs::Trainer trainer) {
  for (const SubmitKind* k : submit_kinds())
    if (&k->job == &jobs::kind_for(trainer)) return *k;
  throw Error("no submit kind for job kind " + std::to_string(static_cast<int>(trainer)));
}

const SubmitKind& submit_kind_for(const SubmitOptions& o) { return submit_kind_for(o.trainer).resolve(o); }

}  // namespace trainctl::submit
