// Elastic PyTorchJobs: the range of workers from spec.elasticPolicy as training-operator
// v1.9.0 defaults it (pytorch_defaults.go setElasticPolicy), the workers that run now, and how
// list, get and -o json show them (a WORKERS column only when an elastic job is listed).
#include <catch2/catch.hpp>

#include "core/iostreams.h"
#include "job_fixtures.h"
#include "jobs/build_job.h"
#include "jobs/job_pods.h"
#include "jobs/job_summary.h"
#include "jobs/kind.h"
#include "jobs/pod_summary.h"
#include "print/job_views.h"

using namespace fixtures;
using namespace trainctl::jobs;

namespace {

const JobKind& pytorch() { return kind_named("pytorchjob"); }

// A PyTorchJob of `workers` Worker replicas only (no Master), with `policy` as elasticPolicy.
json elastic_job(const std::string& name, int workers, const json& policy) {
  json job =
      pytorchjob(name, "2024-05-01T09:50:00Z", 2, 1,
                 {{"startTime", "2024-05-01T09:51:00Z"},
                  {"conditions", json::array({condition("Created", "True", "2024-05-01T09:50:00Z"),
                                              condition("Running", "True", "2024-05-01T09:51:00Z")})}});
  json& specs = job["spec"]["pytorchReplicaSpecs"];
  specs["Worker"]["replicas"] = workers;
  specs.erase("Master");
  if (!policy.is_null()) job["spec"]["elasticPolicy"] = policy;
  return job;
}

json worker_pod(const std::string& job, int index, const std::string& phase) {
  return pod(job + "-worker-" + std::to_string(index),
             {{"training.kubeflow.org/job-name", job},
              {"training.kubeflow.org/operator-name", "pytorchjob-controller"},
              {"training.kubeflow.org/replica-type", "worker"},
              {"training.kubeflow.org/replica-index", std::to_string(index)}},
             phase, 1, "gpu-node-" + std::to_string(index));
}

TrainingJob build(const json& job, const std::vector<json>& pods) {
  JobPods folded;
  for (const auto& p : pods) folded.add(pytorch(), summarize_pod(p));
  return build_job(pytorch(), summarize_job(pytorch(), job), std::move(folded), now());
}

}  // namespace

TEST_CASE("elastic workers: elasticPolicy's bounds, defaulted as the training-operator does") {
  const auto range = [](const json& policy, int workers = 3) {
    return summarize_job(pytorch(), elastic_job("e", workers, policy)).elastic;
  };
  CHECK_FALSE(range(json()).has_value());  // no elasticPolicy: not elastic
  auto r = range({{"minReplicas", 1}, {"maxReplicas", 4}});
  REQUIRE(r);
  CHECK((r->min == 1 && r->max == 4));
  r = range({{"maxReplicas", 4}});  // min defaults to max
  CHECK((r->min == 4 && r->max == 4));
  r = range({{"minReplicas", 2}});  // max defaults to min
  CHECK((r->min == 2 && r->max == 2));
  r = range({{"rdzvBackend", "c10d"}}, 5);  // both default to the Worker replicas
  CHECK((r->min == 5 && r->max == 5));
  // Kinds that are never elastic.
  for (const auto& k : all_kinds())
    if (k.name != "pytorchjob") CHECK(k.elastic_workers == nullptr);
}

TEST_CASE("PyTorchJob chief: the Master's pod when the spec has a Master, never worker 0 then") {
  json job = pytorchjob("with-master", "2024-05-01T09:50:00Z", 3, 1);
  // The master pod is gone (deleted, or not created yet): no chief, as before.
  TrainingJob t =
      build(job, {worker_pod("with-master", 0, "Running"), worker_pod("with-master", 1, "Running")});
  CHECK(t.chief_name.empty());
  CHECK(t.node_display() == "N/A");
  json master = pod("with-master-master-0",
                    {{"training.kubeflow.org/job-name", "with-master"},
                     {"training.kubeflow.org/operator-name", "pytorchjob-controller"},
                     {"training.kubeflow.org/replica-type", "master"},
                     {"training.kubeflow.org/replica-index", "0"}},
                    "Running", 1, "gpu-node-9");
  t = build(job, {worker_pod("with-master", 0, "Running"), master});
  CHECK(t.chief_name == "with-master-master-0");
}

TEST_CASE("elastic workers: running pods counted; list adds WORKERS, get a Workers line, JSON an object") {
  const json policy = {{"minReplicas", 2}, {"maxReplicas", 3}, {"rdzvBackend", "c10d"}};
  JobList list;
  // One worker lost and its replacement still Pending: 2 of 3 run.
  list.push_back(build(elastic_job("elastic", 3, policy),
                       {worker_pod("elastic", 0, "Running"), worker_pod("elastic", 1, "Running"),
                        worker_pod("elastic", 2, "Pending")}));
  REQUIRE(list.back().elastic);
  CHECK(list.back().elastic->running == 2);
  CHECK(list.back().workers_display() == "2 (elastic 2-3)");
  // No Master: worker 0 is the chief (IsMasterRole), its node the job's NODE.
  CHECK(list.back().chief_name == "elastic-worker-0");
  list.push_back(build(pytorchjob("plain", "2024-05-01T09:40:00Z", 2, 1), {}));
  CHECK(list.back().workers_display().empty());

  const auto io = trainctl::IOStreams::test();
  const std::string table = trainctl::print::job_list_table(list, false).render(io);
  CHECK(table.substr(0, table.find('\n')) ==
        "NAME     STATUS   TRAINER     DURATION  GPU(Requested)  GPU(Allocated)  NODE          WORKERS");
  CHECK(table.find("2 (elastic 2-3)") != std::string::npos);
  CHECK(table.find("  -\n") != std::string::npos);  // the plain job's cell

  // Without an elastic job the columns are Arena's.
  JobList plain;
  plain.push_back(list.back());
  const std::string arena = trainctl::print::job_list_table(plain, false).render(io);
  CHECK(arena.find("WORKERS") == std::string::npos);

  const std::string details = trainctl::print::job_details(list.front(), io);
  CHECK(details.find("Duration:    9m\nWorkers:     2 (elastic 2-3)\nCreateTime:") != std::string::npos);
  CHECK(trainctl::print::job_details(list.back(), io).find("Workers:") == std::string::npos);

  const auto j = list.front().to_json();
  CHECK(j["elastic"] ==
        nlohmann::ordered_json::parse(R"({"runningWorkers":2,"minWorkers":2,"maxWorkers":3})"));
  CHECK_FALSE(list.back().to_json().contains("elastic"));
}
