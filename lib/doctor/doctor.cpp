#include "doctor/doctor.h"

#include "core/errors.h"
#include "doctor/checks.h"

namespace trainctl::doctor {

namespace {

// Ready: the default kind is served, the user may create it and the API server admits the job
// its submit would send (dry run).
void decide_ready(const Context& c, Report& r) {
  const submit::SubmitKind& kind = c.default_kind();
  const std::string id = kind_id(kind);
  const Finding* api = r.find("api." + id);
  if (api && api->status == Status::Missing) r.not_ready_because.push_back(kind.job.resource.kind + ": " + api->result);
  // A TrainJob runs on a runtime, as a JobSet (job_apis.cpp judge_trainer).
  if (kind.rules.runs_on_runtime)
    for (const char* need : {"api.runtimes", "api.jobset"})
      if (const Finding* f = r.find(need); f && f->status == Status::Missing)
        r.not_ready_because.push_back(f->name + ": " + f->reason);
  const Finding* perm = r.find("perm." + kind.job.resource.plural + "." + kind.job.resource.group);
  const auto denied_create = [](const Finding& f) {
    const auto verbs = f.details.value("verbs", nlohmann::ordered_json::object());
    return verbs.contains("create") && verbs["create"].is_boolean() && !verbs["create"].get<bool>();
  };
  if (perm && denied_create(*perm))
    r.not_ready_because.push_back("not allowed to create " + kind.job.resource.plural + "." + kind.job.resource.group +
                                  " in " + c.options.namespace_);
  const Finding* dry = r.find("submit." + id);
  if (dry && dry->status != Status::Ok && r.not_ready_because.empty())
    r.not_ready_because.push_back(dry->result + (dry->reason.empty() ? "" : ": " + dry->reason));
  r.ready = r.not_ready_because.empty();
}

}  // namespace

Report run_doctor(kube::Client& client, const DoctorOptions& o) {
  if (!o.templates) throw Error("doctor needs the templates submit renders");
  const jobs::JobKind& default_kind = o.default_kind ? *o.default_kind : jobs::kind_named("pytorchjob");
  // The kinds trainctl submits, in the registry's order (submit/kinds/kinds.def).
  Context c{o, submit::submit_kinds(), &submit::submit_kind_for(default_kind), {}};
  for (const auto* kind : c.kinds)
    c.dry_run_jobs[&kind->job] = dry_run_job(*kind, o.namespace_, *o.templates);

  Report r;
  r.server = o.server;
  r.context = o.context;
  r.namespace_ = o.namespace_;
  r.default_kind = c.default_kind().job.resource.kind;
  r.default_command = submit_command(c.default_kind());

  Probe p;
  ask_job_apis(p, c);
  ask_scheduling(p, c);
  ask_gpus(p, c);
  ask_metrics(p, c);
  ask_permissions(p, c);
  p.send(client);
  r.api_requests = p.size();
  r.round_trips = 1;

  judge_job_apis(p, c, r);
  judge_dry_run(p, c, r);
  judge_scheduling(p, c, r);
  judge_gpus(p, c, r);
  judge_metrics(client, p, c, r);  // one more round trip when a Prometheus is found
  judge_permissions(p, c, r);
  decide_ready(c, r);
  return r;
}

}  // namespace trainctl::doctor
