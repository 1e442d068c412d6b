// Gang schedulers and queues (docs/doctor.md, "Gang scheduling and queues"): scheduler-plugins'
// coscheduling PodGroups, Volcano and its Queues, Kueue with the namespace's LocalQueues and,
// from the dry-run creates, whether its webhook manages each kind (docs/operators.md §5.2a).
#include "doctor/checks.h"
#include "kube/queue_resources.h"
#include "kube/resource.h"
#include "submit/kueue_check.h"

namespace trainctl::doctor {

namespace {

using nlohmann::json;

// scheduler-plugins: PodGroup scheduling.x-k8s.io/v1alpha1 from v0.25, scheduling.sigs.k8s.io
// from v0.19 to v0.24 (docs/operators.md §5.3).
void judge_coscheduling(const Probe& p, Report& r) {
  Finding f{Section::Scheduling, "sched.coscheduling", "Coscheduling"};
  const bool current = serves(p, "scheduling.x-k8s.io", "v1alpha1", "podgroups");
  const bool older = serves(p, "scheduling.sigs.k8s.io", "v1alpha1", "podgroups");
  f.details = {{"podGroupAPI", current ? "scheduling.x-k8s.io/v1alpha1" : older ? "scheduling.sigs.k8s.io/v1alpha1" : ""}};
  if (current || older) {
    f.status = Status::Ok;
    f.result = std::string("scheduler-plugins PodGroups (") +
               (current ? "scheduling.x-k8s.io/v1alpha1, v0.25 or later" : "scheduling.sigs.k8s.io/v1alpha1, v0.19 to v0.24") +
               "): gang scheduling through the training-operator's gang scheduler";
  } else {
    f.status = Status::Info;
    f.result = "no scheduler-plugins PodGroup API";
    f.fix = "for gang scheduling of PyTorchJobs and MPIJobs without Volcano, install scheduler-plugins' "
            "coscheduling and run the operator with its --gang-scheduler-name";
  }
  r.add(std::move(f));
}

void judge_volcano(const Probe& p, Report& r) {
  Finding f{Section::Scheduling, "sched.volcano", "Volcano"};
  const bool served = serves(p, "scheduling.volcano.sh", "v1beta1", "podgroups") &&
                      serves(p, "scheduling.volcano.sh", "v1beta1", "queues");
  f.details = {{"served", served}};
  if (!served) {
    r.add(std::move(f), Status::Info, "not installed (no scheduling.volcano.sh/v1beta1 PodGroups and Queues)",
          "install Volcano for submit volcano and Volcano gang scheduling");
    return;
  }
  const Answer& queues = p.answer("volcano:queues");
  const auto names = item_names(queues);
  f.details["queues"] = names;
  f.status = Status::Ok;
  f.result = "PodGroups and Queues served; Queues: " + (queues.ok() ? joined(names) : "not readable (" + queues.error + ")");
  r.add(std::move(f));
}

// Kueue: installed (its API group), the namespace's LocalQueues, and per kind whether its
// webhook suspended the dry-run create of a job labelled into a LocalQueue.
void judge_kueue(const Probe& p, const Context& c, Report& r) {
  Finding f{Section::Scheduling, "sched.kueue", "Kueue"};
  const Answer& group = p.answer("kueue:group");
  const bool installed = group.ok();
  f.details = {{"installed", installed}};
  if (!installed) {
    r.add(std::move(f), Status::Info, "not installed (no kueue.x-k8s.io API)",
          "install Kueue to queue jobs with submit --kueue-queue");
    return;
  }
  const Answer& lq = p.answer("kueue:localqueues");
  const auto names = item_names(lq);
  f.details["localQueues"] = names;
  f.result = "installed; LocalQueues in " + c.options.namespace_ + ": " + (lq.ok() ? joined(names) : "not readable");
  if (!lq.ok()) {
    f.status = Status::Warning;
    f.reason = "the LocalQueues could not be listed: " + lq.error;
    f.fix = "ask the cluster admin for list on localqueues.kueue.x-k8s.io";
  } else if (names.empty()) {
    f.status = Status::Warning;
    f.reason = "submit --kueue-queue names a LocalQueue of the namespace; there is none";
    f.fix = "ask the cluster admin to create a LocalQueue in " + c.options.namespace_;
  } else {
    f.status = Status::Ok;
  }
  r.add(std::move(f));

  for (const auto* kind : c.kinds) {
    const submit::KueueIntegration& k = kind->rules.kueue;
    if (k.framework.empty()) continue;
    const Answer& a = dry_run_answer(p, *kind);
    if (a.status == 404) continue;  // the kind is not served: its Job API finding says so
    Finding g{Section::Scheduling, "kueue." + kind_id(*kind), "Kueue: " + kind_title(*kind)};
    g.details = {{"integration", k.framework}};
    if (!a.ok()) {
      g.status = Status::Info;
      g.result = "not known: the dry-run create of a queued " + kind_title(*kind) + " failed (" + a.error + ")";
      g.details["managed"] = nullptr;
    } else if (submit::kueue_suspended(*kind, a.body)) {
      g.status = Status::Ok;
      g.result = "managed: Kueue's webhook suspended the queued dry-run create (integration " + k.framework + ")";
      g.details["managed"] = true;
    } else {
      g.status = Status::Warning;
      g.result = "not managed: the queued dry-run create came back unsuspended (integration " + k.framework +
                 " not enabled)";
      g.details["managed"] = false;
      g.reason = submit_command(*kind) + " --kueue-queue would start at once, past the queue's quota, so submit "
                 "refuses it";
      if (!k.off_by_default_from.empty()) g.reason += " (Kueue " + k.off_by_default_from + " and later ship it disabled)";
      g.fix = "ask the cluster admin to add " + k.framework + " to integrations.frameworks in Kueue's configuration";
      if (!k.instead.empty()) g.fix += "; meanwhile " + k.instead;
    }
    r.add(std::move(g));
  }
}

}  // namespace

void ask_scheduling(Probe& p, const Context& c) {
  ask_resources(p, "scheduling.x-k8s.io", "v1alpha1");
  ask_resources(p, "scheduling.sigs.k8s.io", "v1alpha1");
  ask_resources(p, "scheduling.volcano.sh", "v1beta1");
  p.get("volcano:queues", kube::volcano_queues().collection_path());
  p.get("kueue:group", kube::api_group_path(kube::kKueueGroup));
  p.get("kueue:localqueues", kube::kueue_local_queues().collection_path(c.options.namespace_));
  ask_dry_runs(p, c);
}

void judge_scheduling(const Probe& p, const Context& c, Report& r) {
  judge_coscheduling(p, r);
  judge_volcano(p, r);
  judge_kueue(p, c, r);
}

}  // namespace trainctl::doctor
