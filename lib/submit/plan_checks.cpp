// The part of make_plan that checks flags on their own, before anything is derived from them:
// ranges, formats, and flags that belong to another submit command.
#include "core/errors.h"
#include "submit/parse.h"
#include "submit/plan.h"
#include "submit/submit_kind.h"

namespace trainctl::submit {

void check_quantity(const std::string& flag, const std::string& value) {
  if (!value.empty() && !is_quantity(value))
    throw UsageError("invalid " + flag + " " + dq(value) +
                     ": use a Kubernetes quantity such as 500m, 2, 4Gi or 512Mi");
}

void check_flags(const SubmitOptions& o, const SubmitKind& kind, const std::string& namespace_) {
  for (const ForeignFlag& f : o.foreign_flags)
    if (!f.values.empty() || (!f.value.empty() && f.value != "false"))
      throw UsageError(f.name + " is only for " + f.commands);
  if (o.workers < 1) throw UsageError("--workers must be at least 1");
  if (o.gpus < 0) throw UsageError("--gpus must not be negative");
  if (o.retry && *o.retry < 0) throw UsageError("--retry must not be negative");
  if (o.shell != "sh" && o.shell != "bash")
    throw UsageError("invalid --shell " + dq(o.shell) + ": use sh or bash");
  if (o.working_dir.empty() || o.working_dir[0] != '/')
    throw UsageError("invalid --working-dir " + dq(o.working_dir) + ": use an absolute path");
  check_quantity("--cpu", o.cpu);
  check_quantity("--memory", o.memory);
  check_quantity("--share-memory", o.shm_size);
  if (!kind.rules.code_flags && (o.tensorboard || !o.sync_mode.empty() || !o.sync_source.empty()))
    throw UsageError("--tensorboard and --sync-mode are not available on submit " + kind.rules.command);
  if (o.min_available < 0) throw UsageError("--min-available must be at least 1");

  if (o.dry_run && !o.wait.empty()) throw UsageError("--wait cannot be used with --dry-run");
  if (!o.wait.empty() && o.wait != "running" && o.wait != "finished")
    throw UsageError("invalid --wait=" + o.wait + ": use --wait (until every pod runs) or --wait=finished");
  if (o.output != "yaml" && o.output != "json")
    throw UsageError("invalid --output " + dq(o.output) + ": use yaml or json");
  if (!o.timeout.empty()) parse_seconds("--timeout", o.timeout);
  if (!namespace_.empty() && !is_dns1123_label(namespace_)) throw UsageError("invalid namespace " + dq(namespace_));
}

}  // namespace trainctl::submit
