// Volcano Job rules of volcano v1.15.1 (pkg/controllers/job: job_controller_util.go,
// state/*.go, job_controller_actions.go, plugins/svc; pkg/scheduler/framework/session.go).
#include "test_controllers_fixture.h"

using namespace kubesim;
using namespace kubesim::testing;

namespace {

json task(const std::string& name, int replicas, const std::string& outcome, json labels = json::object(),
          json policies = json()) {
  json t = {{"name", name},
            {"replicas", replicas},
            {"template",
             {{"metadata", {{"labels", labels}, {"annotations", {{"kubesim.trainctl.io/outcome", outcome}}}}},
              {"spec",
               {{"restartPolicy", "Never"},
                {"containers", json::array({gpu_container(name, "python train.py", 0)})}}}}}};
  if (!policies.is_null()) t["policies"] = policies;
  return t;
}

json vcjob(const std::string& name, json tasks, json extra = json::object()) {
  json spec = {{"schedulerName", "volcano"}, {"tasks", tasks}};
  for (auto it = extra.begin(); it != extra.end(); ++it) spec[it.key()] = *it;
  return {{"apiVersion", "batch.volcano.sh/v1alpha1"},
          {"kind", "Job"},
          {"metadata",
           {{"name", name},
            {"namespace", "default"},
            {"annotations", {{"kubesim.trainctl.io/duration", "20s"}}}}},
          {"spec", spec}};
}

std::string vc_phase(SimFixture& f, const std::string& name) {
  const json j = f.get("batch.volcano.sh", "v1alpha1", "jobs", name);
  return j.value("status", json::object()).value("state", json::object()).value("phase", "");
}

std::vector<std::string> condition_phases(const json& job) {
  std::vector<std::string> out;
  for (const auto& c : job["status"].value("conditions", json::array())) out.push_back(c.value("status", ""));
  return out;
}

}  // namespace

TEST_CASE("Volcano's ctr-paddlepaddle example runs to Completed through Completing",
          "[controllers][volcano][upstream]") {
  // example/integrations/paddlepaddle/ctr-paddlepaddle-on-volcano.yaml: pservers serve forever,
  // trainers finish; the trainer task's TaskCompleted -> CompleteJob ends the job.
  SimFixture f;
  json job =
      vcjob("ctr-volcano",
            json::array({task("pserver", 2, "run-forever", {{"paddle-job-pserver", "fluid-ctr"}}),
                         task("trainer", 2, "succeed", {{"paddle-job", "fluid-ctr"}},
                              json::array({{{"event", "TaskCompleted"}, {"action", "CompleteJob"}}}))}),
            {{"minAvailable", 4},
             {"policies", json::array({{{"event", "PodEvicted"}, {"action", "RestartJob"}},
                                       {{"event", "PodFailed"}, {"action", "RestartJob"}}})}});
  json created = f.create("batch.volcano.sh", "v1alpha1", "jobs", job);
  f.step(5s);
  CHECK(vc_phase(f, "ctr-volcano") == "Running");
  const json ps = f.pod("ctr-volcano-pserver-1");
  CHECK(ps["metadata"]["labels"]["paddle-job-pserver"] == "fluid-ctr");
  CHECK_FALSE(ps["metadata"]["labels"].contains("paddle-job"));
  CHECK(f.pod("ctr-volcano-trainer-0")["metadata"]["labels"]["paddle-job"] == "fluid-ctr");
  const std::string pg = "ctr-volcano-" + created["metadata"]["uid"].get<std::string>();
  CHECK(f.get("scheduling.volcano.sh", "v1beta1", "podgroups", pg)["status"]["phase"] == "Running");

  // The pservers are deleted with their 30 s grace period; the job is Completed once they are gone.
  f.step(80s);
  json done = f.get("batch.volcano.sh", "v1alpha1", "jobs", "ctr-volcano");
  CHECK(done["status"]["state"]["phase"] == "Completed");
  const auto phases = condition_phases(done);
  CHECK(std::find(phases.begin(), phases.end(), "Completing") != phases.end());
  // CompleteJob kills softly: the running pservers go, the succeeded trainers stay.
  CHECK_FALSE(f.find("", "v1", "pods", "ctr-volcano-pserver-0"));
  CHECK(phase(f.pod("ctr-volcano-trainer-1")) == "Succeeded");
  // killJob deletes the PodGroup.
  CHECK_FALSE(f.find("scheduling.volcano.sh", "v1beta1", "podgroups", pg));
}

TEST_CASE("Volcano pods carry the template's labels and Volcano's labels and annotations",
          "[controllers][volcano][upstream]") {
  SimFixture f;
  json created =
      f.create("batch.volcano.sh", "v1alpha1", "jobs",
               vcjob("lab", json::array({task("driver", 1, "run-forever", {{"volcano-role", "driver"}}),
                                         task("worker", 1, "run-forever")})));
  f.step(1s);
  const json p = f.pod("lab-driver-0");
  const json& l = p["metadata"]["labels"];
  CHECK(l["volcano-role"] == "driver");
  CHECK(l["volcano.sh/job-name"] == "lab");
  CHECK(l["volcano.sh/job-namespace"] == "default");
  CHECK(l["volcano.sh/queue-name"] == "default");
  CHECK(l["volcano.sh/task-spec"] == "driver");
  CHECK(l["volcano.sh/task-index"] == "0");
  const json& a = p["metadata"]["annotations"];
  CHECK(a["scheduling.k8s.io/group-name"] == "lab-" + created["metadata"]["uid"].get<std::string>());
  CHECK(a["volcano.sh/job-version"] == "0");
  CHECK(a["volcano.sh/template-uid"] == "lab-driver");
  CHECK(a["volcano.sh/job-retry-count"] == "0");
  CHECK(a["volcano.sh/task-spec"] == "driver");
  CHECK_FALSE(f.pod("lab-worker-0")["metadata"]["labels"].contains("volcano-role"));
  CHECK(p["spec"]["schedulerName"] == "volcano");
}

TEST_CASE("Volcano task-level policies win over the job's, exit codes included",
          "[controllers][volcano][upstream]") {
  SimFixture f;
  // The trainer fails with exit code 1: its task policy (exitCode 1 -> AbortJob) decides, not
  // the job's PodFailed -> RestartJob.
  f.create("batch.volcano.sh", "v1alpha1", "jobs",
           vcjob("prec",
                 json::array({task("trainer", 1, "fail", json::object(),
                                   json::array({{{"exitCode", 1}, {"action", "AbortJob"}}}))}),
                 {{"policies", json::array({{{"event", "PodFailed"}, {"action", "RestartJob"}}})}}));
  f.step(40s);
  json j = f.get("batch.volcano.sh", "v1alpha1", "jobs", "prec");
  CHECK(j["status"]["state"]["phase"] == "Aborted");
  CHECK(j["status"].value("retryCount", 0) == 0);
}

TEST_CASE("Volcano RestartJob restarts until retryCount reaches maxRetry, then Failed",
          "[controllers][volcano][upstream]") {
  SimFixture f;
  f.create("batch.volcano.sh", "v1alpha1", "jobs",
           vcjob("retry", json::array({task("trainer", 1, "fail")}),
                 {{"maxRetry", 2},
                  {"policies", json::array({{{"event", "PodFailed"}, {"action", "RestartJob"}}})}}));
  f.step(3s);
  CHECK(f.pod("retry-trainer-0")["metadata"]["annotations"]["volcano.sh/job-version"] == "0");
  f.step(25s);  // first failure: Restarting, version 1, a new pod
  json j = f.get("batch.volcano.sh", "v1alpha1", "jobs", "retry");
  CHECK(j["status"]["retryCount"] == 1);
  CHECK(j["status"]["version"] == 1);
  CHECK(f.pod("retry-trainer-0")["metadata"]["annotations"]["volcano.sh/job-version"] == "1");
  f.step(22s);  // second failure (~44s): retryCount 2 >= maxRetry 2 -> Failed, no third run
  j = f.get("batch.volcano.sh", "v1alpha1", "jobs", "retry");
  CHECK(j["status"]["state"]["phase"] == "Failed");
  CHECK(j["status"]["retryCount"] == 2);
  const auto phases = condition_phases(j);
  CHECK(std::find(phases.begin(), phases.end(), "Restarting") != phases.end());
  // At the last retry killPods keeps Failed pods.
  CHECK(phase(f.pod("retry-trainer-0")) == "Failed");
}

TEST_CASE("Volcano pods wait for the PodGroup to leave Pending; a closed queue keeps it there",
          "[controllers][volcano][upstream]") {
  SimFixture f;
  f.create("scheduling.volcano.sh", "v1beta1", "queues",
           {{"apiVersion", "scheduling.volcano.sh/v1beta1"},
            {"kind", "Queue"},
            {"metadata", {{"name", "closed-q"}}},
            {"spec", {{"weight", 1}}}});
  auto set_state = [&](const std::string& state) {
    f.store.mutate(f.type("scheduling.volcano.sh", "v1beta1", "queues"), "", "closed-q", [&](json& q) {
      q["status"]["state"] = state;
      return true;
    });
  };
  set_state("Closed");
  json created =
      f.create("batch.volcano.sh", "v1alpha1", "jobs",
               vcjob("gated", json::array({task("trainer", 2, "run-forever")}), {{"queue", "closed-q"}}));
  f.step(5s);
  const std::string pg = "gated-" + created["metadata"]["uid"].get<std::string>();
  CHECK(f.get("scheduling.volcano.sh", "v1beta1", "podgroups", pg)["status"]["phase"] == "Pending");
  CHECK_FALSE(f.find("", "v1", "pods", "gated-trainer-0"));
  CHECK(vc_phase(f, "gated") == "Pending");
  set_state("Open");
  f.step(5s);
  CHECK(f.find("", "v1", "pods", "gated-trainer-0"));
  CHECK(f.get("scheduling.volcano.sh", "v1beta1", "podgroups", pg)["status"]["phase"] == "Running");
  CHECK(vc_phase(f, "gated") == "Running");
}

TEST_CASE("Volcano: the scheduler's default queues, and a job on a missing queue stays put",
          "[controllers][volcano][upstream]") {
  SimFixture f;
  json def = f.get("scheduling.volcano.sh", "v1beta1", "queues", "default", "");
  CHECK(def["spec"]["reclaimable"] == true);
  CHECK(def["spec"]["weight"] == 1);
  f.step(0ms);
  CHECK(f.get("scheduling.volcano.sh", "v1beta1", "queues", "default", "")["status"]["state"] == "Open");
  CHECK(f.get("scheduling.volcano.sh", "v1beta1", "queues", "root", "")["spec"]["reclaimable"] == false);
  f.create("batch.volcano.sh", "v1alpha1", "jobs",
           vcjob("lost", json::array({task("trainer", 1, "succeed")}), {{"queue", "no-such-queue"}}));
  f.step(5s);
  CHECK_FALSE(f.find("", "v1", "pods", "lost-trainer-0"));
  CHECK(vc_phase(f, "lost").empty());
}

TEST_CASE("Volcano svc plugin: headless Service, hosts ConfigMap and env",
          "[controllers][volcano][upstream]") {
  SimFixture f;
  f.create("batch.volcano.sh", "v1alpha1", "jobs",
           vcjob("svcjob", json::array({task("ps", 1, "run-forever"), task("work-er", 2, "run-forever")}),
                 {{"plugins", {{"svc", json::array()}, {"env", json::array()}}}}));
  f.create("batch.volcano.sh", "v1alpha1", "jobs",
           vcjob("pub", json::array({task("ps", 1, "run-forever")}),
                 {{"plugins", {{"svc", json::array({"--publish-not-ready-addresses"})}}}}));
  f.step(1s);
  json svc = f.get("", "v1", "services", "svcjob");
  CHECK(svc["spec"]["publishNotReadyAddresses"] == false);
  CHECK(svc["spec"]["selector"] ==
        json{{"volcano.sh/job-name", "svcjob"}, {"volcano.sh/job-namespace", "default"}});
  CHECK(f.get("", "v1", "services", "pub")["spec"]["publishNotReadyAddresses"] == true);
  json cm = f.get("", "v1", "configmaps", "svcjob-svc");
  CHECK(cm["data"]["VC_WORK_ER_HOSTS"] == "svcjob-work-er-0.svcjob,svcjob-work-er-1.svcjob");
  CHECK(cm["data"]["VC_WORK_ER_NUM"] == "2");
  CHECK(cm["data"]["work_er.host"] == "svcjob-work-er-0.svcjob\nsvcjob-work-er-1.svcjob");
  const json p = f.pod("svcjob-work-er-1");
  CHECK(p["spec"]["hostname"] == "svcjob-work-er-1");
  CHECK(p["spec"]["subdomain"] == "svcjob");
  const json& c = p["spec"]["containers"][0];
  CHECK(env_value(c, "VC_TASK_INDEX") == "1");
  CHECK(env_value(c, "VK_TASK_INDEX") == "1");
  CHECK(env_value(c, "VC_PS_HOSTS") == "<valueFrom>");
}
