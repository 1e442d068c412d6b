// Kueue's visibility API in the version discovery names: v0.15 to v0.19.2 serve v1beta2 and
// v1beta1 and prefer v1beta2 (pkg/visibility/server.go PrioritizedVersions; both APIServices
// of versionPriority 100, ordered by the aggregator's kube-aware version order); v0.9 to v0.14
// serve v1beta1 only; a later release may serve v1beta2 only.
#include <catch2/catch.hpp>

#include "core/errors.h"
#include "jobs/cluster/queues.h"
#include "kube/queue_resources.h"
#include "support/fake_client.h"

using nlohmann::json;
using trainctl::testing::FakeClient;
using namespace trainctl;

namespace {

constexpr const char* kGroupPath = "/apis/visibility.kueue.x-k8s.io";

json api_group(const std::vector<std::string>& versions) {
  json vs = json::array();
  for (const auto& v : versions) vs.push_back({{"groupVersion", "visibility.kueue.x-k8s.io/" + v}, {"version", v}});
  json g = {{"kind", "APIGroup"}, {"apiVersion", "v1"}, {"name", "visibility.kueue.x-k8s.io"}, {"versions", vs}};
  if (!vs.empty()) g["preferredVersion"] = vs[0];
  return g;
}

json summary() {
  return {{"kind", "PendingWorkloadsSummary"},
          {"items",
           {{{"metadata",
              {{"name", "pytorchjob-q3-1a2b3"},
               {"namespace", "default"},
               {"ownerReferences", {{{"kind", "PyTorchJob"}, {"name", "q3"}}}}}},
             {"localQueueName", "team-a"},
             {"priority", 0},
             {"positionInClusterQueue", 0},
             {"positionInLocalQueue", 0}}}}};
}

}  // namespace

TEST_CASE("visibility version: the preferred one, else the first trainctl reads", "[queues]") {
  CHECK(kube::kueue_visibility_version(api_group({"v1beta2", "v1beta1"})) == "v1beta2");
  CHECK(kube::kueue_visibility_version(api_group({"v1beta1"})) == "v1beta1");
  CHECK(kube::kueue_visibility_version(api_group({"v1beta2"})) == "v1beta2");
  // Kueue v0.9: v1beta1 preferred over v1alpha1.
  CHECK(kube::kueue_visibility_version(api_group({"v1beta1", "v1alpha1"})) == "v1beta1");
  // A version trainctl does not know is passed over for one it reads, in the server's order.
  CHECK(kube::kueue_visibility_version(api_group({"v1", "v1beta2", "v1beta1"})) == "v1beta2");
  CHECK(kube::kueue_visibility_version(api_group({"v1"})).empty());
  CHECK(kube::kueue_visibility_version(json()).empty());
}

TEST_CASE("pending workloads are read in the version discovery names", "[queues]") {
  for (const std::string version : {"v1beta2", "v1beta1"}) {
    INFO(version);
    FakeClient c;
    c.on_get(kGroupPath, api_group({version}));
    c.on_get(std::string(kGroupPath) + "/" + version + "/clusterqueues/cluster-a/pendingworkloads", summary());
    const auto pending = jobs::read_pending_workloads(c, jobs::discover_visibility_version(c), "cluster-a");
    REQUIRE(pending.size() == 1);
    CHECK(pending[0].owner_name == "q3");
    c.verify();
  }
}

TEST_CASE("pending workloads: an unserved visibility API and a missing ClusterQueue are told apart", "[queues]") {
  FakeClient c;
  c.on_not_found(kGroupPath);
  const std::string version = jobs::discover_visibility_version(c);
  CHECK(version.empty());
  CHECK_THROWS_AS(jobs::read_pending_workloads(c, version, "cluster-a"), NotFoundError);
  CHECK_THROWS_WITH(jobs::read_pending_workloads(c, version, "cluster-a"),
                    "Kueue's visibility API (visibility.kueue.x-k8s.io v1beta2 or v1beta1) is not served on this "
                    "cluster");
  FakeClient c2;
  c2.on_not_found(std::string(kGroupPath) + "/v1beta2/clusterqueues/nope/pendingworkloads");
  CHECK_THROWS_WITH(jobs::read_pending_workloads(c2, "v1beta2", "nope"), "ClusterQueue nope not found");
}
