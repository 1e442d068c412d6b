// trainctl suspend/resume's library (jobs/suspend.h): what each kind sends, written here from
// the upstream APIs (training-operator v1.9.0 common_types.go RunPolicy.Suspend "suspend";
// mpi-operator v0.8.0 v2beta1 types.go RunPolicy; k8s.io/api batch/v1 JobSpec.Suspend;
// volcano v1.15.1 pkg/cli/util/util.go CreateJobCommand and bus.volcano.sh_commands.yaml), not
// read back from trainctl's kinds.
#include <catch2/catch.hpp>

#include "core/errors.h"
#include "job_fixtures.h"
#include "jobs/kind.h"
#include "jobs/suspend.h"
#include "status_table.h"
#include "support/fake_client.h"

using nlohmann::json;
using namespace trainctl;
using namespace trainctl::jobs;
using trainctl::testing::FakeClient;

namespace {

FoundJob found(const std::string& t, json job) { return {&kind_named(t), std::move(job)}; }

json running_pytorchjob() {
  return fixtures::pytorchjob(
      "demo", status_table::kCreated, 2, 1,
      status_table::started(status_table::kf("Running", "True", "PyTorchJobRunning")));
}

std::string refusal(const FoundJob& f, bool suspend, const KueueWorkload& workload = {}) {
  try {
    plan_suspend(f, suspend, workload);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("suspend: each kind's merge patch sets its API's suspend field", "[suspend]") {
  const json kubeflow_on = {{"spec", {{"runPolicy", {{"suspend", true}}}}}};
  const json kubeflow_off = {{"spec", {{"runPolicy", {{"suspend", false}}}}}};
  struct Case {
    std::string kind;
    json job;
    json on, off;
  };
  const json started = status_table::started(status_table::kf("Running", "True", "Running"));
  const std::vector<Case> cases = {
      {"pytorchjob", running_pytorchjob(), kubeflow_on, kubeflow_off},
      {"tfjob", fixtures::tfjob("demo", status_table::kCreated, 1, 2, 1, false, started), kubeflow_on,
       kubeflow_off},
      {"mpijob", fixtures::mpijob("demo", status_table::kCreated, 2, 1, started), kubeflow_on, kubeflow_off},
      {"batchjob",
       fixtures::batchjob("demo", status_table::kCreated,
                          {{"startTime", status_table::kStarted}, {"active", 2}}),
       {{"spec", {{"suspend", true}}}},
       {{"spec", {{"suspend", false}}}}},
  };
  for (const auto& c : cases) {
    CAPTURE(kind_named(c.kind).resource.display());
    const SuspendPlan s = plan_suspend(found(c.kind, c.job), true);
    CHECK(s.action == SuspendPlan::Action::Change);
    CHECK(s.change.merge_patch == c.on);
    CHECK(s.change.create_resource == nullptr);
    // Once the field is true the job is suspended: suspend again is a no-op, resume undoes it.
    json suspended = c.job;
    suspended.merge_patch(c.on);
    CHECK(plan_suspend(found(c.kind, suspended), true).action == SuspendPlan::Action::AlreadyDone);
    const SuspendPlan r = plan_suspend(found(c.kind, suspended), false);
    CHECK(r.action == SuspendPlan::Action::Change);
    CHECK(r.change.merge_patch == c.off);
    CHECK(plan_suspend(found(c.kind, c.job), false).action == SuspendPlan::Action::AlreadyDone);
  }
}

TEST_CASE("suspend: a Volcano Job gets the Command vcctl job suspend/resume creates", "[suspend]") {
  const json running = fixtures::volcanojob("demo", status_table::kCreated, status_table::volcano("Running"));
  const json owner = {{"apiVersion", "batch.volcano.sh/v1alpha1"},
                      {"kind", "Job"},
                      {"name", "demo"},
                      {"uid", "uid-demo"},
                      {"controller", true},
                      {"blockOwnerDeletion", true}};
  const SuspendPlan s = plan_suspend(found("volcanojob", running), true);
  REQUIRE(s.action == SuspendPlan::Action::Change);
  REQUIRE(s.change.create_resource != nullptr);
  CHECK(s.change.create_resource->collection_path("default") ==
        "/apis/bus.volcano.sh/v1alpha1/namespaces/default/commands");
  CHECK(s.change.create == json{{"apiVersion", "bus.volcano.sh/v1alpha1"},
                                {"kind", "Command"},
                                {"metadata",
                                 {{"generateName", "demo-abortjob-"},
                                  {"namespace", "default"},
                                  {"ownerReferences", json::array({owner})}}},
                                {"target", owner},
                                {"action", "AbortJob"}});
  CHECK(plan_suspend(found("volcanojob", running), false).action == SuspendPlan::Action::AlreadyDone);
  for (const char* phase : {"Aborting", "Aborted"}) {
    CAPTURE(phase);
    const json aborted = fixtures::volcanojob("demo", status_table::kCreated, status_table::volcano(phase));
    CHECK(plan_suspend(found("volcanojob", aborted), true).action == SuspendPlan::Action::AlreadyDone);
    const SuspendPlan r = plan_suspend(found("volcanojob", aborted), false);
    CHECK(r.change.create["action"] == "ResumeJob");
    CHECK(r.change.create["metadata"]["generateName"] == "demo-resumejob-");
  }
}

TEST_CASE("suspend: refused for a Kueue-queued job, a finished job and a kind without suspend", "[suspend]") {
  json queued = running_pytorchjob();
  queued["metadata"]["labels"]["kueue.x-k8s.io/queue-name"] = "team-a";
  // The Workload as kueue_workload_of finds it: labelled with the job's uid (jobframework).
  FakeClient client;
  const std::string workloads =
      "/apis/kueue.x-k8s.io/v1beta1/namespaces/default/"
      "workloads?labelSelector=kueue.x-k8s.io%2Fjob-uid%3Duid-demo&limit=100";
  client.on_get(workloads,
                FakeClient::list(json::array({{{"metadata", {{"name", "pytorchjob-demo-3f2a1"}}}}})));
  const KueueWorkload wl = kueue_workload_of(client, "default", queued);
  CHECK(wl.state == KueueWorkload::State::Found);
  const std::string kueue = refusal(found("pytorchjob", queued), true, wl);
  CHECK(
      kueue ==
      "PyTorchJob demo is in Kueue queue team-a: Kueue suspends and resumes it and would undo a suspend; set "
      "spec.active of Workload pytorchjob-demo-3f2a1 to false (kueuectl stop workload)");
  CHECK_THAT(refusal(found("pytorchjob", queued), false, {KueueWorkload::State::Unknown, ""}),
             Catch::Contains("its Workload (kubectl get workloads)") &&
                 Catch::Contains("to true (kueuectl resume workload)"));

  // No Workload for it (the job's Kueue integration is off: no reconciler) or no Kueue at all:
  // the label means nothing, the job is suspended as any other; no label: nothing is read.
  FakeClient none;
  none.on_get(workloads, FakeClient::list(json::array()));
  CHECK(kueue_workload_of(none, "default", queued).state == KueueWorkload::State::None);
  FakeClient no_kueue;
  no_kueue.on_not_found(workloads);
  CHECK(kueue_workload_of(no_kueue, "default", queued).state == KueueWorkload::State::None);
  FakeClient unused;
  CHECK(kueue_workload_of(unused, "default", running_pytorchjob()).state == KueueWorkload::State::None);
  CHECK(plan_suspend(found("pytorchjob", queued), true).action == SuspendPlan::Action::Change);

  const json done =
      fixtures::pytorchjob("demo", status_table::kCreated, 2, 1,
                           status_table::ended(status_table::kf("Succeeded", "True", "PyTorchJobSucceeded")));
  CHECK(refusal(found("pytorchjob", done), true) ==
        "PyTorchJob demo has finished (SUCCEEDED): there is nothing to suspend");

  JobKind without = kind_named("pytorchjob");
  without.suspend = nullptr;
  CHECK(refusal({&without, running_pytorchjob()}, true) ==
        "PyTorchJob demo: a PyTorchJob (kubeflow.org/v1) cannot be suspended, its API has no suspend");
}

TEST_CASE("suspend: the patch goes out as a JSON merge patch with strict field validation", "[suspend]") {
  FakeClient client;
  const std::string path = "/apis/kubeflow.org/v1/namespaces/default/pytorchjobs/demo?fieldValidation=Strict";
  json stored = running_pytorchjob();
  stored["spec"]["runPolicy"]["suspend"] = true;
  client.on("PATCH", path, 200, stored);
  const FoundJob f = found("pytorchjob", running_pytorchjob());
  apply_suspend(client, f, "default", plan_suspend(f, true).change);
  REQUIRE(client.requests().size() == 1);
  CHECK(client.requests()[0].content_type == "application/merge-patch+json");
  CHECK(json::parse(client.requests()[0].body) == json{{"spec", {{"runPolicy", {{"suspend", true}}}}}});
  client.verify();

  // An older CRD without the field: kube-apiserver's strict field validation refuses it.
  FakeClient old;
  old.on(
      "PATCH", path, 422,
      FakeClient::status(
          422, "Invalid",
          ".spec.runPolicy.suspend: field not declared in schema; unknown field \"spec.runPolicy.suspend\""));
  CHECK_THROWS_WITH(
      apply_suspend(old, f, "default", plan_suspend(f, true).change),
      "PyTorchJob demo cannot be suspended or resumed here: the served PyTorchJob (kubeflow.org/v1) "
      "has no spec.runPolicy.suspend (an operator release before suspend was added)");
}

TEST_CASE("suspend: a Volcano Command is created, and refused where bus.volcano.sh is not served",
          "[suspend]") {
  const FoundJob f = found(
      "volcanojob", fixtures::volcanojob("demo", status_table::kCreated, status_table::volcano("Running")));
  const std::string path = "/apis/bus.volcano.sh/v1alpha1/namespaces/default/commands?fieldValidation=Strict";
  FakeClient client;
  client.on("POST", path, 201,
            {{"apiVersion", "bus.volcano.sh/v1alpha1"},
             {"kind", "Command"},
             {"metadata", {{"name", "demo-abortjob-x7k2p"}, {"namespace", "default"}}}});
  apply_suspend(client, f, "default", plan_suspend(f, true).change);
  client.verify();
  FakeClient none;
  none.on("POST", path, 404,
          FakeClient::status(404, "NotFound", "the server could not find the requested resource"));
  CHECK_THROWS_WITH(apply_suspend(none, f, "default", plan_suspend(f, true).change),
                    "Job demo cannot be suspended or resumed here: the server does not serve "
                    "bus.volcano.sh/v1alpha1 commands "
                    "(Volcano's bus CRD is not installed)");
}

TEST_CASE("suspend: every kind trainctl lists declares how it is suspended", "[suspend]") {
  // All of them have a suspend in their API (see jobs/suspend.h); a new kind without one sets
  // none and is refused.
  for (const auto& k : all_kinds()) {
    CAPTURE(k.resource.display());
    REQUIRE(k.suspend != nullptr);
    CHECK_FALSE(k.suspend->field == nullptr);
  }
  // --type tj is the TrainJob kind, suspended by spec.suspend.
  const auto tj = kinds_for_type("TJ");
  REQUIRE(tj.size() == 1);
  CHECK(tj[0]->resource.object_path("default", "x") ==
        "/apis/trainer.kubeflow.org/v1alpha1/namespaces/default/trainjobs/x");
  const json suspended = {
      {"metadata", {{"name", "x"}, {"namespace", "default"}}},
      {"spec", {{"suspend", true}}},
      {"status", {{"conditions", json::array({status_table::kf("Suspended", "True", "Suspended")})}}}};
  CHECK(plan_suspend({tj[0], suspended}, false).change.merge_patch == json{{"spec", {{"suspend", false}}}});
  CHECK(kinds_for_type("").size() == all_kinds().size());
}
