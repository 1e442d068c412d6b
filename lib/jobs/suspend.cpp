// Suspending and resuming jobs (see suspend.h).
#include "jobs/suspend.h"

#include <algorithm>

#include "core/errors.h"
#include "core/text.h"
#include "jobs/find_jobs.h"
#include "jobs/job_query.h"
#include "jobs/json_util.h"
#include "jobs/status_rules.h"
#include "kube/list_reads.h"
#include "kube/object_ops.h"
#include "kube/queue_resources.h"

namespace trainctl::jobs {

using nlohmann::json;

namespace {

bool flag_at(const json& job, std::initializer_list<std::string_view> path) {
  const json& v = at_path(job, path);
  return v.is_boolean() && v.get<bool>();
}

bool run_policy_suspended(const json& job) { return flag_at(job, {"spec", "runPolicy", "suspend"}); }
SuspendChange run_policy_change(const json&, bool suspend) {
  return {{{"spec", {{"runPolicy", {{"suspend", suspend}}}}}}};
}

bool spec_suspended(const json& job) { return flag_at(job, {"spec", "suspend"}); }
SuspendChange spec_change(const json&, bool suspend) { return {{{"spec", {{"suspend", suspend}}}}}; }

// Volcano's job controller moves a job that took AbortJob to Aborting, then Aborted once its
// pods are gone (pkg/controllers/job/state/pending.go, running.go, aborting.go); ResumeJob
// takes an Aborting or Aborted job to Restarting (aborting.go, aborted.go).
bool volcano_suspended(const json& job) {
  const std::string phase = str(at_path(job, {"status", "state"}), "phase");
  return phase == "Aborting" || phase == "Aborted";
}

// CreateJobCommand: generateName NAME-<action lower case>-, the job as controller owner
// (metav1.NewControllerRef) and as target, the action.
SuspendChange volcano_change(const json& job, bool suspend) {
  const std::string action = suspend ? "AbortJob" : "ResumeJob";
  const std::string name = name_of(job);
  const json ref = {
      {"apiVersion", str(job, "apiVersion").empty() ? "batch.volcano.sh/v1alpha1" : str(job, "apiVersion")},
      {"kind", "Job"},
      {"name", name},
      {"uid", str(at(job, "metadata"), "uid")},
      {"controller", true},
      {"blockOwnerDeletion", true}};
  SuspendChange c;
  c.create_resource = &volcano_commands();
  c.create = {{"apiVersion", "bus.volcano.sh/v1alpha1"},
              {"kind", "Command"},
              {"metadata",
               {{"generateName", name + "-" + (suspend ? "abortjob" : "resumejob") + "-"},
                {"namespace", namespace_of(job)},
                {"ownerReferences", json::array({ref})}}},
              {"target", ref},
              {"action", action}};
  return c;
}


std::string what(const JobKind& kind, const std::string& name) { return kind.resource.kind + " " + name; }

}  // namespace

const SuspendRules kRunPolicySuspend{"spec.runPolicy.suspend", run_policy_suspended, run_policy_change};
const SuspendRules kSpecSuspend{"spec.suspend", spec_suspended, spec_change};
const SuspendRules kVolcanoCommand{"a bus.volcano.sh Command", volcano_suspended, volcano_change};

const kube::Resource& volcano_commands() {
  static const kube::Resource r{"bus.volcano.sh", "v1alpha1", "commands", "Command"};
  return r;
}

FoundJob find_job_object(kube::Client& client, const std::string& ns, const std::string& name,
                         const std::vector<const JobKind*>& kinds) {
  NameMatch m = find_job(client, ns, name, kinds);
  return {&m.kind(), std::move(m.object)};
}

std::string kueue_queue_of(const json& job) { return label(job, "kueue.x-k8s.io/queue-name"); }

KueueWorkload kueue_workload_of(kube::Client& client, const std::string& ns, const json& job) {
  const std::string uid = str(at(job, "metadata"), "uid");
  if (kueue_queue_of(job).empty() || uid.empty()) return {};
  try {
    const auto r = kube::read_all(
        client, {{kube::kueue_workloads().collection_path(ns), true, {"kueue.x-k8s.io/job-uid=" + uid}}});
    if (r[0].not_found || r[0].items.empty()) return {};
    return {KueueWorkload::State::Found, name_of(r[0].items[0])};
  } catch (const ApiError&) {
    return {KueueWorkload::State::Unknown, ""};  // forbidden: the refusal says where to look
  }
}

SuspendPlan plan_suspend(const FoundJob& found, bool suspend, const KueueWorkload& workload) {
  const JobKind& kind = *found.kind;
  const std::string name = name_of(found.object);
  const char* verb = suspend ? "suspend" : "resume";
  if (!kind.suspend)
    throw UsageError(what(kind, name) + ": a " + kind.resource.display() + " cannot be " +
                     (suspend ? "suspended" : "resumed") + ", its API has no suspend");
  if (workload.state != KueueWorkload::State::None) {
    const std::string wl =
        workload.name.empty() ? "its Workload (kubectl get workloads)" : "Workload " + workload.name;
    throw UsageError(what(kind, name) + " is in Kueue queue " + kueue_queue_of(found.object) +
                     ": Kueue suspends and resumes it and would undo a " + verb + "; set spec.active of " +
                     wl + " to " +
                     (suspend ? "false (kueuectl stop workload)" : "true (kueuectl resume workload)"));
  }
  const bool now = kind.suspend->suspended(found.object);
  if (now == suspend) return {SuspendPlan::Action::AlreadyDone, {}};
  const JobStatus status = object_status(kind, found.object);
  if (is_finished(status))
    throw UsageError(what(kind, name) + " has finished (" + status_name(status) + "): there is nothing to " +
                     verb);
  return {SuspendPlan::Action::Change, kind.suspend->change(found.object, suspend)};
}

void apply_suspend(kube::Client& client, const FoundJob& found, const std::string& ns,
                   const SuspendChange& change) {
  const std::string name = name_of(found.object);
  try {
    if (change.create_resource) {
      kube::create_object(client, *change.create_resource, ns, change.create);
      return;
    }
    kube::merge_patch_object(client, found.kind->resource, ns, name, change.merge_patch);
  } catch (const ApiError& e) {
    // An older CRD without the field refuses it (Strict field validation); a cluster that
    // does not serve Volcano's Commands answers 404.
    if (e.http_status() == 404 && change.create_resource)
      throw UsageError(what(*found.kind, name) +
                       " cannot be suspended or resumed here: the server does not serve " +
                       change.create_resource->api_version() + " " + change.create_resource->plural +
                       " (Volcano's bus CRD is not installed)");
    if ((e.http_status() == 422 || e.http_status() == 400) &&
        (std::string(e.what()).find("unknown field") != std::string::npos ||
         std::string(e.what()).find("field not declared in schema") != std::string::npos))
      throw UsageError(what(*found.kind, name) + " cannot be suspended or resumed here: the served " +
                       found.kind->resource.display() + " has no " + found.kind->suspend->field +
                       " (an operator release before suspend was added)");
    throw;
  }
}

}  // namespace trainctl::jobs
