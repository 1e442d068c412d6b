#include "submit/plan.h"

#include <cctype>

#include "core/errors.h"
#include "submit/parse.h"
#include "submit/submit_kind.h"

namespace trainctl::submit {

namespace {

// Checks the name against Kubernetes' limits on everything derived from it.
void check_name(const Plan& p) {
  const std::string& n = p.name;
  if (n.empty()) throw UsageError("--name is required");
  if (!is_dns1123_label(n) || !std::isalpha(static_cast<unsigned char>(n[0])))
    throw UsageError("invalid --name " + dq(n) +
                     ": use lower-case letters, digits and '-', starting with a letter and ending with a "
                     "letter or digit");
  std::vector<std::string> derived = p.submit_kind->derived_names(p);
  if (p.tensorboard) derived.push_back(n + "-tensorboard");
  for (const auto& d : derived) {
    if (d.size() > 63)
      throw UsageError("--name " + dq(n) + " is too long: the derived name " + dq(d) + " would have " +
                       std::to_string(d.size()) + " characters (at most 63)");
  }
}

}  // namespace

Plan make_plan(const SubmitOptions& o, const std::string& namespace_, std::vector<ConfigDir> config_dirs) {
  Plan p;
  const SubmitKind& kind = submit_kind_for(o);
  p.submit_kind = &kind;
  p.kind = &kind.job;
  p.template_kind = kind.rules.template_dir;
  p.name = o.name;
  p.namespace_ = namespace_;
  check_flags(o, kind, namespace_);
  plan_pod(o, p);
  kind.plan_replicas(o, p);
  plan_volumes(o, std::move(config_dirs), p);
  plan_scheduling(o, p);
  kind.plan_kind(o, p);
  add_implicit_annotations(o, p);
  check_name(p);
  // Arena's pytorchjob and mpijob commands refuse a submit without a command ("not found
  // command args"): the image's entrypoint is rarely a distributed training run, and a missing
  // command is most often a flag that swallowed it. Checked last, after every flag.
  if (kind.rules.command_required && p.command.empty())
    throw UsageError("submit " + kind.rules.command +
                     " needs the command to run, as its last argument, e.g. \"python train.py\"");
  return p;
}

}  // namespace trainctl::submit
