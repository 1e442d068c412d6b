// The views of queue list / queue pending and get's queue line, from hand-made queues.
#include <catch2/catch.hpp>

#include <functional>

#include "jobs/cluster/queues.h"
#include "print/queue_views.h"

using namespace trainctl;

namespace {

std::string plain(const std::function<std::string(const IOStreams&)>& view) {
  IOStreams io = IOStreams::test();
  return view(io);
}

}  // namespace

TEST_CASE("queue views: Volcano queues with vcctl's counts and resources", "[queue]") {
  jobs::VolcanoQueue q;
  q.name = "default";
  q.state = "Open";
  q.weight = 1;
  q.capability = {{"nvidia.com/gpu", "16"}, {"cpu", "64"}};
  q.inqueue = 1;
  q.running = 2;
  CHECK(plain([&](const IOStreams& io) { return print::volcano_queues_view({q}, io); }) ==
        "NAME     STATE  WEIGHT  CAPABILITY                   ALLOCATED  INQUEUE  PENDING  RUNNING\n"
        "default  Open   1       cpu: 64, nvidia.com/gpu: 16  -          1        0        2\n");
}

TEST_CASE("queue views: a ClusterQueue row per flavor and resource, LocalQueues, pending workloads", "[queue]") {
  jobs::ClusterQueue cq{"cluster-a", "", "StrictFIFO", {{"f", "nvidia.com/gpu", "4", "4", "4"}}, 1, 2, 2};
  CHECK(plain([&](const IOStreams& io) { return print::cluster_queues_view({cq}, io); }) ==
        "NAME       COHORT  FLAVOR  RESOURCE        NOMINAL  USED  PENDING  ADMITTED\n"
        "cluster-a  -       f       nvidia.com/gpu  4        4     1        2\n");
  jobs::LocalQueue lq{"default", "team-a", "cluster-a", 1, 2, 2};
  CHECK(plain([&](const IOStreams& io) { return print::local_queues_view({lq}, io); }) ==
        "NAMESPACE  NAME    CLUSTERQUEUE  PENDING  ADMITTED\n"
        "default    team-a  cluster-a     1        2\n");
  const auto pending = jobs::parse_pending_workloads(nlohmann::json::parse(R"({"items": [
    {"metadata": {"name": "pytorchjob-q3-abcde", "namespace": "default",
                  "ownerReferences": [{"kind": "PyTorchJob", "name": "q3"}]},
     "priority": 0, "localQueueName": "team-a", "positionInClusterQueue": 0, "positionInLocalQueue": 0}]})"));
  CHECK(plain([&](const IOStreams& io) { return print::pending_workloads_view(pending, io); }) ==
        "POSITION  NAMESPACE  JOB            WORKLOAD             LOCALQUEUE  LQ-POSITION  PRIORITY\n"
        "0         default    PyTorchJob/q3  pytorchjob-q3-abcde  team-a      0            0\n");
  CHECK(print::pending_workloads_json(pending)[0]["job"]["name"] == "q3");
}

TEST_CASE("queue views: a missing scheduler is one line; get's queue text and JSON", "[queue]") {
  jobs::QueueOverview o;
  o.volcano = true;
  const std::string out = plain([&](const IOStreams& io) { return print::queues_view(o, io); });
  CHECK(out.find("Volcano queues:\nNo resources found\n") != std::string::npos);
  CHECK(out.find("Kueue is not installed") != std::string::npos);
  jobs::JobQueue q{"kueue", "team-a", "cluster-a", "Pending", 0};
  CHECK(print::job_queue_text(q) == "team-a (Kueue LocalQueue, ClusterQueue cluster-a), Pending at position 0");
  CHECK(q.to_json().dump() ==
        R"({"name":"team-a","kind":"kueue","position":0,"clusterQueue":"cluster-a","phase":"Pending"})");
  jobs::JobQueue v{"volcano", "default", "", "Inqueue", std::nullopt};
  CHECK(print::job_queue_text(v) == "default (Volcano Queue), Inqueue");
  CHECK(v.to_json()["position"].is_null());
  CHECK(v.to_json()["clusterQueue"].is_null());
}
