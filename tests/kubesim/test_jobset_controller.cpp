// The JobSet v0.12.0 controller on JobSets of its own (jobset_controller.go, depends_on.go,
// success_policy.go, failure_policy.go, ttl_after_finished.go): Job names, labels and
// annotations, dependsOn, success policies with targets, failure policies (none, RestartJobSet
// up to maxRestarts, FailJobSet), replicatedJobsStatus sorted by name descending, the TTL.
#include "trainer_fixture.h"

using namespace kubesim;
using namespace kubesim::testing;
using namespace std::chrono_literals;

namespace {

json rjob(const std::string& name, int replicas, int pods, const std::string& command, json extra = json::object()) {
  json rj = {{"name", name},
             {"replicas", replicas},
             {"template",
              {{"spec",
                {{"parallelism", pods},
                 {"completions", pods},
                 {"backoffLimit", 0},
                 {"template", {{"spec", {{"containers", {{{"name", "c"}, {"image", "x"}, {"command", {"sh", "-c", command}}}}}}}}}}}}}};
  for (const auto& [k, v] : extra.items()) rj[k] = v;
  return rj;
}

// rjob with pod template annotations.
json annotated(json rj, json annotations) {
  rj["template"]["spec"]["template"]["metadata"]["annotations"] = std::move(annotations);
  return rj;
}

json make_jobset(TrainerSim& f, const std::string& name, json rjobs, json spec_extra = json::object(),
                 json annotations = json::object()) {
  json js = {{"apiVersion", kJobSetApiVersion},
             {"kind", "JobSet"},
             {"metadata", {{"name", name}, {"namespace", "default"}}},
             {"spec", {{"replicatedJobs", rjobs}}}};
  for (const auto& [k, v] : spec_extra.items()) js["spec"][k] = v;
  if (!annotations.empty()) js["metadata"]["annotations"] = annotations;
  return f.store.create(*f.t.jobsets, js);
}

bool job_exists(TrainerSim& f, const std::string& name) { return f.find("batch", "v1", "jobs", name).has_value(); }

}  // namespace

TEST_CASE("jobset: Jobs <js>-<rjob>-<i>, labelled and annotated, statuses sorted by name descending",
          "[jobset]") {
  TrainerSim f;
  make_jobset(f, "js", {rjob("alpha", 2, 1, "sleep 1"), rjob("beta", 1, 2, "sleep 1")}, json::object(),
              {{"kubesim.trainctl.io/outcome", "run-forever"}});
  f.step(4s);
  for (const char* n : {"js-alpha-0", "js-alpha-1", "js-beta-0"}) CHECK(job_exists(f, n));
  const json job = f.get("batch", "v1", "jobs", "js-alpha-1");
  const json labels = job["metadata"]["labels"];
  CHECK(labels[kJobSetNameKey] == "js");
  CHECK(labels[kReplicatedJobNameKey] == "alpha");
  CHECK(labels[kJobIndexKey] == "1");
  CHECK(labels[kJobGlobalIndexKey] == "1");
  CHECK(labels[kGlobalReplicasKey] == "3");
  CHECK(labels[kReplicatedJobReplicasKey] == "2");
  CHECK(labels[kRestartsKey] == "0");
  CHECK(labels[kGroupNameKey] == "default");
  CHECK(labels[kJobKey] == "2e049fd65f88a0fd87619ef42fc17f43fad789ee");  // sha1("default/js-alpha-1")
  CHECK(job["metadata"]["annotations"][kJobSetNameKey] == "js");
  CHECK(f.get("batch", "v1", "jobs", "js-beta-0")["metadata"]["labels"][kJobGlobalIndexKey] == "2");
  CHECK(job["spec"]["template"]["spec"]["subdomain"] == "js");
  CHECK(job["spec"]["template"]["metadata"]["labels"][kJobIndexKey] == "1");
  const json st = f.jobset("js")["status"];
  REQUIRE(st["replicatedJobsStatus"].size() == 2);
  CHECK(st["replicatedJobsStatus"][0]["name"] == "beta");
  CHECK(st["replicatedJobsStatus"][1]["name"] == "alpha");
  CHECK(st["replicatedJobsStatus"][1]["active"] == 2);
  CHECK(st["replicatedJobsStatus"][1]["ready"] == 2);
  CHECK(st["restarts"] == 0);
}

TEST_CASE("jobset: dependsOn Complete waits for the initializer, then the trainer starts", "[jobset]") {
  TrainerSim f;
  make_jobset(f, "dep",
              {rjob("init", 1, 1, "python prepare.py"),
               rjob("train", 1, 1, "sleep 1", {{"dependsOn", {{{"name", "init"}, {"status", "Complete"}}}}})},
              json::object(), {{"kubesim.trainctl.io/duration", "10s"}});
  f.step(5s);
  CHECK(job_exists(f, "dep-init-0"));
  CHECK(!job_exists(f, "dep-train-0"));
  f.step(10s);
  CHECK(job_exists(f, "dep-train-0"));
  f.step(15s);
  const json done = condition_of(f.jobset("dep"), "Completed");
  REQUIRE(done.is_object());
  CHECK(done["reason"] == "AllJobsCompleted");
  CHECK(f.jobset("dep")["status"]["terminalState"] == "Completed");
}

TEST_CASE("jobset: a success policy on one replicated job completes the JobSet and deletes the rest", "[jobset]") {
  TrainerSim f;
  make_jobset(f, "sp",
              {annotated(rjob("server", 1, 1, "sleep 1"), {{kOutcomeAnnotation, "run-forever"}}),
               rjob("client", 1, 1, "sleep 1")},
              {{"successPolicy", {{"operator", "All"}, {"targetReplicatedJobs", {"client"}}}}},
              {{"kubesim.trainctl.io/duration", "10s"}});
  f.step(20s);
  CHECK(condition_of(f.jobset("sp"), "Completed").is_object());
  f.step(2s);
  // Deleted in the foreground: gone once its pod has gone through its grace period.
  const auto server = f.find("batch", "v1", "jobs", "sp-server-0");
  CHECK((!server || server->at("metadata").contains("deletionTimestamp")));
  f.step(40s);
  CHECK(!job_exists(f, "sp-server-0"));
}

TEST_CASE("jobset: without a failure policy the first failed Job fails the JobSet", "[jobset]") {
  TrainerSim f;
  make_jobset(f, "fp", json::array({rjob("a", 2, 1, "sleep 1")}), json::object(),
              {{"kubesim.trainctl.io/outcome", "fail"}, {"kubesim.trainctl.io/duration", "5s"}});
  f.step(15s);
  const json js = f.jobset("fp");
  const json failed = condition_of(js, "Failed");
  REQUIRE(failed.is_object());
  CHECK(failed["reason"] == "FailedJobs");
  CHECK(failed["message"].get<std::string>().rfind("jobset failed due to one or more job failures (first failed job: fp-a-",
                                                      0) == 0);
  CHECK(js["status"]["terminalState"] == "Failed");
  REQUIRE(!f.events_of("fp", "FailedJobs").empty());
  CHECK(f.events_of("fp", "FailedJobs")[0]["type"] == "Warning");
}

TEST_CASE("jobset: RestartJobSet recreates the Jobs until maxRestarts, then ReachedMaxRestarts", "[jobset]") {
  TrainerSim f;
  make_jobset(f, "rs", json::array({rjob("a", 1, 1, "sleep 1")}), {{"failurePolicy", {{"maxRestarts", 1}}}},
              {{"kubesim.trainctl.io/outcome", "fail"}, {"kubesim.trainctl.io/duration", "5s"}});
  f.step(9s);
  json js = f.jobset("rs");
  CHECK(js["status"]["restarts"] == 1);
  CHECK(js["status"]["restartsCountTowardsMax"] == 1);
  const auto restarts = f.events_of("rs", "RestartJobSetFailurePolicyAction");
  REQUIRE(restarts.size() == 1);
  CHECK(restarts[0]["message"] == "applying RestartJobSet failure policy action (first failed job: rs-a-0)");
  // The RestartingJobSet condition was True (DefaultFailurePolicy), an event says so; the new
  // Jobs ready make it False (JobsReady).
  const auto restarting_events = f.events_of("rs", "DefaultFailurePolicy");
  REQUIRE(restarting_events.size() == 1);
  CHECK(restarting_events[0]["type"] == "Warning");
  f.step(20s);
  CHECK(f.get("batch", "v1", "jobs", "rs-a-0")["metadata"]["labels"][kRestartsKey] == "1");
  f.step(20s);
  js = f.jobset("rs");
  const json failed = condition_of(js, "Failed");
  REQUIRE(failed.is_object());
  CHECK(failed["reason"] == "ReachedMaxRestarts");
  CHECK(failed["message"] == "jobset failed due to reaching max number of restarts (first failed job: rs-a-0)");
  CHECK(condition_of(js, "RestartingJobSet")["status"] == "False");
}

TEST_CASE("jobset: a FailJobSet rule fails at once", "[jobset]") {
  TrainerSim f;
  make_jobset(f, "fj", json::array({rjob("a", 1, 1, "sleep 1")}),
              {{"failurePolicy",
                {{"maxRestarts", 5}, {"rules", {{{"action", "FailJobSet"}, {"onJobFailureReasons", {"BackoffLimitExceeded"}}}}}}}},
              {{"kubesim.trainctl.io/outcome", "fail"}, {"kubesim.trainctl.io/duration", "5s"}});
  f.step(10s);
  const json failed = condition_of(f.jobset("fj"), "Failed");
  REQUIRE(failed.is_object());
  CHECK(failed["reason"] == "FailJobSetFailurePolicyAction");
  CHECK(failed["message"] == "applying FailJobSet failure policy action (first failed job: fj-a-0)");
}

TEST_CASE("jobset: ttlSecondsAfterFinished deletes a finished JobSet", "[jobset]") {
  TrainerSim f;
  make_jobset(f, "ttl", json::array({rjob("a", 1, 1, "sleep 1")}), {{"ttlSecondsAfterFinished", 30}},
              {{"kubesim.trainctl.io/duration", "5s"}});
  f.step(12s);
  REQUIRE(condition_of(f.jobset("ttl"), "Completed").is_object());
  f.step(20s);
  CHECK(f.find_jobset("ttl"));
  f.step(15s);
  CHECK(!f.find_jobset("ttl"));
}

TEST_CASE("jobset: torch ranks in two replicated jobs meet: one JobSet is one job", "[jobset][rendezvous]") {
  // The rendezvous counts the pods of the JobSet (jobset.sigs.k8s.io/jobset-name), not only
  // those of one Job: rank 0 in `master` and rank 1 in `worker` form their group.
  TrainerSim f;
  const std::string args = "--nnodes 2 --master-addr rdzv-master-0-0.rdzv --master-port 29500 train.py";
  make_jobset(f, "rdzv",
              {rjob("master", 1, 1, "torchrun --node-rank 0 " + args), rjob("worker", 1, 1, "torchrun --node-rank 1 " + args)},
              json::object(), {{"kubesim.trainctl.io/duration", "20s"}});
  f.step(10s);
  const auto pods = f.pods_of("rdzv");
  REQUIRE(pods.size() == 2);
  for (const auto& p : pods) CHECK(f.log_of(p, "c").find("Train Epoch") != std::string::npos);
  f.step(20s);
  CHECK(condition_of(f.jobset("rdzv"), "Completed").is_object());
}
