// Streaming reads of jobs, pods and nodes: items reduced to summaries as their pages stream in
// (kube/list_reads.h), and the reduced results equal to what whole objects give.
#include <catch2/catch.hpp>

#include <sstream>

#include "core/errors.h"
#include "job_fixtures.h"
#include "jobs/build_job.h"
#include "jobs/job_query.h"
#include "print/job_views.h"
#include "jobs/cluster/node_usage.h"
#include "jobs/pod_summary.h"
#include "print/output.h"
#include "support/fake_client.h"

using nlohmann::json;
using trainctl::testing::FakeClient;
using namespace trainctl::jobs;
using namespace fixtures;
using trainctl::print::jobs_json;
using trainctl::print::write_jobs_json;
using trainctl::print::write_jobs_yaml;

TEST_CASE("summarize_pod keeps the row, the kinds' labels and what status and GPUs need") {
  json p = pod("pytorch-dist-master-0", pytorch_labels("pytorch-dist", "master", 0), "Running", 2, "node-1");
  p["metadata"]["labels"]["team"] = "vision";
  p["metadata"]["annotations"] = {{"requestGPUsOfJobOwner", "8"}};
  p["spec"]["priorityClassName"] = "high";
  const auto s = summarize_pod(p);
  CHECK(s.instance.name == "pytorch-dist-master-0");
  CHECK(s.instance.status == "Running");
  CHECK(s.instance.node_ip == "192.168.0.31");
  CHECK(s.instance.gpus == 2);
  CHECK(s.instance.containers == std::vector<std::string>{"pytorch"});
  CHECK(s.namespace_ == "default");
  CHECK(s.label("training.kubeflow.org/replica-type") == "master");
  CHECK(s.label("team").empty());  // no kind selects on it
  CHECK(s.matches("training.kubeflow.org/operator-name=pytorchjob-controller"));
  CHECK_FALSE(s.matches("training.kubeflow.org/operator-name=mpi-operator"));
  CHECK(s.owner_request == 8);
  CHECK(s.priority_class == "high");
  CHECK(s.holds_gpus());
  CHECK(summarize_pod(p, false).instance.containers.empty());
  const auto done = summarize_pod(pod("x", json::object(), "Succeeded", 1, "node-3"));
  CHECK_FALSE(done.holds_gpus());
  CHECK(done.latest_transition == parse_time("2024-05-01T09:58:00Z"));
}

// Older releases: Kubernetes before 1.28 (completion index as an annotation only), Volcano
// before v1.4 (task as an annotation) and before v1.9 (no task-index label: the pod name).
TEST_CASE("summarize_pod reads the labels older releases do not set from annotations and names") {
  json indexed = pod("ddp-0-x7k2p", {{"job-name", "ddp"}}, "Running", 0, "node-1");
  indexed["metadata"]["annotations"] = {{"batch.kubernetes.io/job-completion-index", "0"}};
  const auto i = summarize_pod(indexed);
  CHECK(i.label("job-name") == "ddp");
  CHECK(i.label("batch.kubernetes.io/job-completion-index") == "0");
  const JobKind& none = kind_named("batchjob");
  CHECK(pod_job_of_kind(none, i) == "ddp");
  CHECK(i.label(none.chief_label) == none.chief_value);

  json old_volcano = pod("ctr-pserver-1", {{"volcano.sh/job-name", "ctr"}}, "Running", 0, "node-1");
  old_volcano["metadata"]["annotations"] = {{"volcano.sh/task-spec", "pserver"}};
  const auto v = summarize_pod(old_volcano);
  CHECK(v.label("volcano.sh/task-spec") == "pserver");
  CHECK(v.label("volcano.sh/task-index") == "1");
  // A label, where there is one, wins; a name that is not JOB-TASK-INDEX gives no index.
  json other = pod("ctr-pserver-1", {{"volcano.sh/job-name", "ctr"}, {"volcano.sh/task-spec", "pserver"},
                                     {"volcano.sh/task-index", "7"}}, "Running", 0, "node-1");
  CHECK(summarize_pod(other).label("volcano.sh/task-index") == "7");
  json odd = pod("ctr-pserver-x", {{"volcano.sh/job-name", "ctr"}, {"volcano.sh/task-spec", "pserver"}}, "Running",
                 0, "node-1");
  CHECK(summarize_pod(odd).label("volcano.sh/task-index").empty());
}

TEST_CASE("list_jobs builds jobs from pods spread over pages of several lists") {
  for (bool instances : {true, false}) {
    CAPTURE(instances);
    FakeClient c;
    const std::string jobs_path = "/apis/kubeflow.org/v1/namespaces/default/pytorchjobs?limit=100";
    const std::string pods_path =
        "/api/v1/namespaces/default/pods?labelSelector=training.kubeflow.org%2Fjob-name&limit=100";
    json running = {{"startTime", "2024-05-01T09:59:00Z"},
                    {"conditions", json::array({condition("Running", "True", "2024-05-01T09:59:00Z")})}};
    c.on_get(jobs_path,
             FakeClient::list(json::array({pytorchjob("a", "2024-05-01T09:58:00Z", 2, 1, running)}), "j2"));
    // Later pages ask for as many as fit in kube::kPageBytes, at most 500 (kPageSize).
    const auto later = [](std::string path) { return path.replace(path.find("limit=100"), 9, "limit=500"); };
    c.on_get(later(jobs_path) + "&continue=j2",
             FakeClient::list(json::array({pytorchjob("b", "2024-05-01T09:00:00Z", 1, 1)})));
    // a's worker comes first, its master on the last page; an MPI pod shares the label.
    c.on_get(pods_path,
             FakeClient::list(
                 json::array({pod("a-worker-0", pytorch_labels("a", "worker", 0), "Running", 1, "node-2")}),
                 "p2"));
    c.on_get(
        later(pods_path) + "&continue=p2",
        FakeClient::list(
            json::array({pod("m-launcher", mpi_labels("a", "launcher"), "Running", 0, "node-1")}), "p3"));
    c.on_get(later(pods_path) + "&continue=p3",
             FakeClient::list(
                 json::array({pod("a-master-0", pytorch_labels("a", "master", 0), "Running", 1, "node-1")})));
    // b runs under training-operator v1.3 (kubeflow/common v0.3.7 labels), found by the list
    // of older releases' pods sent with the others and told to be b's by its owner.
    json b_master = pod("b-master-0",
                        {{"group-name", "kubeflow.org"}, {"job-name", "b"}, {"replica-type", "master"},
                         {"replica-index", "0"}, {"job-role", "master"}},
                        "Running", 1, "node-1");
    b_master["metadata"]["ownerReferences"] =
        json::array({{{"apiVersion", "kubeflow.org/v1"}, {"kind", "PyTorchJob"}, {"name", "b"}, {"controller", true}}});
    c.on_get("/api/v1/namespaces/default/pods?labelSelector=group-name%3Dkubeflow.org%2C%21training.kubeflow.org%2Fjob-"
             "name&limit=100",
             FakeClient::list(json::array({b_master})));
    const auto jobs = list_jobs(c, "default", {&kind_named("pytorchjob")}, now(), instances);
    REQUIRE(jobs.size() == 2);
    CHECK(jobs[0].name == "a");
    CHECK(jobs[0].status == JobStatus::Running);
    CHECK(jobs[0].chief_name == "a-master-0");
    CHECK(jobs[0].chief_node_ip == "192.168.0.31");
    CHECK(jobs[0].gpus_requested == 2);
    CHECK(jobs[0].gpus_allocated == 2);
    if (instances) {
      REQUIRE(jobs[0].instances.size() == 2);  // not the MPI launcher
      CHECK(jobs[0].instances[0].name == "a-master-0");
      CHECK(jobs[0].instances[0].is_chief);
      CHECK_FALSE(jobs[0].instances[1].is_chief);
    } else {
      CHECK(jobs[0].instances.empty());
    }
    CHECK(jobs[1].name == "b");
    CHECK(jobs[1].status == JobStatus::Pending);
    CHECK(jobs[1].gpus_requested == 1);
    CHECK(jobs[1].gpus_allocated == 1);
    CHECK(jobs[1].chief_name == "b-master-0");
    if (instances) CHECK(jobs[1].instances.size() == 1);
    CHECK(c.batches() == std::vector<size_t>{3, 2, 1});
    CHECK_NOTHROW(c.verify());
  }
}

TEST_CASE("list_jobs skips a kind whose resource is not served (404)") {
  FakeClient c;
  c.on_not_found("/apis/batch.volcano.sh/v1alpha1/jobs?limit=100");
  c.on_get("/api/v1/pods?labelSelector=volcano.sh%2Fjob-name&limit=100",
           FakeClient::list(json::array({pod("v-0", volcano_labels("v", "t", 0), "Running", 1, "node-1")})));
  CHECK(list_jobs(c, "", {&kind_named("volcanojob")}, now(), true).empty());
  CHECK(c.batches() == std::vector<size_t>{2});
}

TEST_CASE("write_jobs_json and write_jobs_yaml print what to_json/to_yaml print of the whole array") {
  JobList jobs;
  for (int n : {0, 1, 2}) {
    std::ostringstream j, y;
    write_jobs_json(j, jobs);
    write_jobs_yaml(y, jobs);
    CHECK(j.str() == trainctl::print::to_json(jobs_json(jobs)));
    CHECK(y.str() == trainctl::print::to_yaml(jobs_json(jobs)));
    json p = pod("w-" + std::to_string(n), pytorch_labels("w", "master", 0), "Running", 1, "node-1");
    jobs.push_back(
        build_job(kind_named("pytorchjob"), pytorchjob("w" + std::to_string(n), kNow, 1, 1), {&p}, now()));
  }
}

TEST_CASE("NodeUsageBuilder: per-node sums without pod rows equal the sums with them, in any order") {
  json excl = {{"metadata", {{"name", "e"}}},
               {"status", {{"capacity", {{"nvidia.com/gpu", "4"}}}, {"allocatable", {{"nvidia.com/gpu", "4"}}}}}};
  auto gpu_pod = [](const std::string& name, const std::string& node, int n, const std::string& phase) {
    return json{{"metadata", {{"name", name}, {"namespace", "default"}}},
                {"spec",
                 {{"nodeName", node},
                  {"containers", json::array({{{"resources", {{"limits", {{"nvidia.com/gpu", n}}}}}}})}}},
                {"status", {{"phase", phase}}}};
  };
  for (bool keep : {false, true}) {
    NodeUsageBuilder b(keep);
    b.add_pod(gpu_pod("p1", "e", 1, "Running"));  // before its node
    b.add_node(excl);
    b.add_pod(gpu_pod("p2", "e", 2, "Pending"));
    b.add_pod(gpu_pod("p3", "e", 2, "Failed"));
    b.add_pod(gpu_pod("p4", "other", 1, "Running"));
    auto u = b.finish();
    REQUIRE(u.size() == 1);
    CHECK(u[0].allocated == 3);
    CHECK(u[0].pods.size() == (keep ? 2u : 0u));
  }
  NodeUsageBuilder only(true, {"x"});
  only.add_node(excl);
  CHECK(only.finish().empty());
}

// The operator-free kind finds its pods by the Job controller's job-name label, which the pods
// of every batch/v1 Job carry: a TrainJob's (its JobSet's Jobs) and an MPIJob launcher's too.
// Its pod list leaves those out on the server instead of reading each of them once more.
TEST_CASE("list_jobs: the operator-free kind's pod list leaves out JobSet and MPIJob launcher pods") {
  CHECK(pods_list_selector({&kind_named("batchjob")}, "job-name") ==
        "job-name,!jobset.sigs.k8s.io/jobset-name,!training.kubeflow.org/job-name");
  // A label several kinds read stays whole: each kind tells its pods apart.
  CHECK(pods_list_selector({&kind_named("pytorchjob"), &kind_named("mpijob")}, "training.kubeflow.org/job-name") ==
        "training.kubeflow.org/job-name");
  FakeClient c;
  c.on_get("/apis/batch/v1/jobs?labelSelector=app%3Dpytorchjob%2Ctrainctl.io%2Foperator%3Dnone&limit=100",
           FakeClient::list(json::array({batchjob("b", "2024-05-01T09:30:00Z",
                                                  {{"active", 2}, {"startTime", "2024-05-01T09:30:00Z"}})})));
  c.on_get("/api/v1/pods?labelSelector=job-name%2C%21jobset.sigs.k8s.io%2Fjobset-name%2C%21training.kubeflow.org%"
           "2Fjob-name&limit=100",
           FakeClient::list(json::array({pod("b-0-x", batch_labels("b", 0), "Running", 1, "node-2"),
                                         pod("b-1-y", batch_labels("b", 1), "Running", 1, "node-1")})));
  const auto jobs = list_jobs(c, "", {&kind_named("batchjob")}, now(), false);
  REQUIRE(jobs.size() == 1);
  CHECK(jobs[0].gpus_allocated == 2);
  CHECK(jobs[0].chief_name == "b-0-x");
  CHECK_NOTHROW(c.verify());
}
