// The labels an Indexed batch/v1 Job's pods get, by emulated Kubernetes release:
// batch.kubernetes.io/job-name and controller-uid from 1.27 (kubernetes/kubernetes#114930,
// the selector switching to the prefixed label), the job-completion-index pod label from 1.28
// (PodIndexLabel, beta and on by default); the annotation since Indexed Jobs (1.21).
#include "test_controllers_fixture.h"

using namespace kubesim;
using namespace kubesim::testing;

namespace {

json indexed_job(const std::string& name) {
  return {{"apiVersion", "batch/v1"},
          {"kind", "Job"},
          {"metadata", {{"name", name}, {"namespace", "default"}}},
          {"spec",
           {{"completions", 2},
            {"parallelism", 2},
            {"completionMode", "Indexed"},
            {"template",
             {{"metadata", {{"labels", {{"app", "ddp"}}}}},
              {"spec",
               {{"restartPolicy", "Never"},
                {"containers", json::array({gpu_container("pytorch", "torchrun train.py", 0)})}}}}}}}};
}

json first_pod(SimFixture& f, const std::string& job) {
  for (const auto& p : f.list("", "v1", "pods"))
    if (p["metadata"]["labels"].value("job-name", "") == job &&
        annotation(p, "batch.kubernetes.io/job-completion-index") == "0")
      return p;
  FAIL("no pod of index 0");
  return {};
}

}  // namespace

TEST_CASE("Job pod labels follow the emulated Kubernetes release", "[controllers][batch][version]") {
  struct Case {
    int minor;
    bool prefixed, index_label;
  };
  for (const Case& c :
       {Case{26, false, false}, Case{27, true, false}, Case{28, true, true}, Case{31, true, true}}) {
    INFO("Kubernetes 1." << c.minor);
    SimulationOptions o;
    o.kubernetes_minor = c.minor;
    SimFixture f(true, o);
    json job = f.create("batch", "v1", "jobs", indexed_job("idx"));
    f.step(0ms);
    const std::string uid = job["metadata"]["uid"];
    const json stored = f.get("batch", "v1", "jobs", "idx");
    CHECK(stored["spec"]["selector"]["matchLabels"] ==
          json{{c.prefixed ? "batch.kubernetes.io/controller-uid" : "controller-uid", uid}});
    const json p = first_pod(f, "idx");
    const json& l = p["metadata"]["labels"];
    CHECK(l["app"] == "ddp");
    CHECK(l["job-name"] == "idx");
    CHECK(l["controller-uid"] == uid);
    CHECK(l.contains("batch.kubernetes.io/job-name") == c.prefixed);
    CHECK(l.contains("batch.kubernetes.io/controller-uid") == c.prefixed);
    CHECK(l.contains("batch.kubernetes.io/job-completion-index") == c.index_label);
    CHECK(annotation(p, "batch.kubernetes.io/job-completion-index") == "0");
  }
}

TEST_CASE("a Job with restartPolicy OnFailure fails when container restarts reach backoffLimit",
          "[controllers][batch][upstream]") {
  // kubernetes pkg/controller/job/job_controller.go pastBackoffLimitOnFailure: the restart
  // counts of the Pending/Running pods >= backoffLimit (not >).
  SimFixture f;
  json job = indexed_job("crashy");
  json annotations = {{"kubesim.trainctl.io/outcome", "crash"}, {"kubesim.trainctl.io/duration", "3s"}};
  json pod_spec = {{"restartPolicy", "OnFailure"},
                   {"containers", json::array({gpu_container("c", "run", 0)})}};
  job["spec"] = {{"backoffLimit", 2},
                 {"template", {{"metadata", {{"annotations", annotations}}}, {"spec", pod_spec}}}};
  f.create("batch", "v1", "jobs", job);
  int64_t last_restarts = -1;
  for (int i = 0; i < 200; ++i) {
    const json j = f.get("batch", "v1", "jobs", "crashy");
    if (j.contains("status") && find_condition(j, "Failed")) break;
    for (const auto& p : f.list("", "v1", "pods"))
      if (p["metadata"]["labels"].value("job-name", "") == "crashy")
        for (const auto& cs : p.value("status", json::object()).value("containerStatuses", json::array()))
          last_restarts = cs.value("restartCount", 0);
    f.step(500ms);
  }
  const json j = f.get("batch", "v1", "jobs", "crashy");
  const json* failed = find_condition(j, "Failed");
  REQUIRE(failed != nullptr);
  CHECK((*failed)["reason"] == "BackoffLimitExceeded");
  // The restart that brings the count to the limit fails the Job at once: the highest count
  // seen while it was active is backoffLimit - 1 (it was backoffLimit with "> limit").
  CHECK(last_restarts == 1);
}
