// Server-side dry-run creates (?dryRun=All): the API server runs its admission chain (mutating
// webhooks such as Kueue's, validating webhooks, quotas of objects, schema validation with
// fieldValidation=Strict) on the job a submit would send, and stores nothing
// (k8s.io/apiserver pkg/endpoints/handlers/create.go; webhooks are called for a dry run only
// when they declare sideEffects None or NoneOnDryRun, as Kueue's and the operators' do).
#include "core/errors.h"
#include "doctor/checks.h"
#include "kube/object_ops.h"
#include "submit/manifests.h"
#include "submit/plan.h"

namespace trainctl::doctor {

namespace {

using nlohmann::json;

std::string dry_run_key(const submit::SubmitKind& kind) { return "dryrun:" + kind_id(kind); }

}  // namespace

std::string submit_command(const submit::SubmitKind& kind) {
  std::string out = "trainctl submit " + kind.rules.command;
  for (const submit::KeyValue& flag : kind.rules.minimal_flags) out += " " + flag.key + " " + flag.value;
  return out;
}

json dry_run_job(const submit::SubmitKind& kind, const std::string& ns, const render::TemplateSet& t) {
  // What submit_command(kind) says: the Indexed Job through submit pytorch --operator none, a
  // TrainJob on the runtime submit pytorch uses where only Trainer v2 is installed.
  submit::SubmitOptions o = submit::minimal_options(kind, "trainctl-doctor", "busybox", "true");
  if (!kind.rules.kueue.framework.empty()) o.kueue_queue = kDryRunQueue;
  const submit::Plan plan = submit::make_plan(o, ns, {});
  json job = submit::build_manifests(plan, t).front();
  // A name of its own from the server, so that a job of the same name is never in the way.
  job["metadata"].erase("name");
  job["metadata"]["generateName"] = "trainctl-doctor-";
  return job;
}

void ask_dry_runs(Probe& p, const Context& c) {
  for (const auto* kind : c.kinds) {
    const auto it = c.dry_run_jobs.find(&kind->job);
    if (it == c.dry_run_jobs.end()) continue;
    p.ask(dry_run_key(*kind), kube::create_request(kind->job.resource, c.options.namespace_, it->second, true));
  }
}

const Answer& dry_run_answer(const Probe& p, const submit::SubmitKind& kind) {
  return p.answer(dry_run_key(kind));
}

void judge_dry_run(const Probe& p, const Context& c, Report& r) {
  const submit::SubmitKind& kind = c.default_kind();
  const Answer& a = dry_run_answer(p, kind);
  Finding f{Section::JobApis, "submit." + kind_id(kind), "Dry-run submit"};
  const std::string what = submit_command(kind) + " in " + c.options.namespace_;
  f.details = {{"kind", kind.job.resource.kind}, {"status", a.status}};
  if (a.ok()) {
    f.status = Status::Ok;
    f.result = what + ": the API server admits the " + kind.job.resource.kind + " it would create (dry run)";
  } else if (a.status == 404) {
    f.status = Status::Missing;
    f.result = what + ": " + kind.job.resource.display() + " is not served";
    f.reason = a.error;
    f.fix = kind.rules.not_installed_hint;
  } else if (a.status == 403) {
    f.status = Status::Missing;
    f.result = what + ": not allowed";
    f.reason = a.error;
    f.fix = "ask the cluster admin for create on " + kind.job.resource.plural + "." + kind.job.resource.group +
            " in namespace " + c.options.namespace_;
  } else {
    f.status = Status::Missing;
    f.result = what + ": refused (" + (a.status ? "HTTP " + std::to_string(a.status) : "no answer") + ")";
    f.reason = a.error;
    f.fix = a.status == 0 ? "check the connection to the cluster"
                          : "the API server's admission (a webhook, a policy or the CRD's schema) refuses the job "
                            "trainctl renders: see the reason, and the templates (trainctl templates export)";
  }
  if (!a.ok()) f.details["error"] = a.error;
  r.add(std::move(f));
}

}  // namespace trainctl::doctor
