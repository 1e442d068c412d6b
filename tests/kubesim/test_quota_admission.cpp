// ResourceQuota admission of pod creates, worded as kube-apiserver's
// (plugin/pkg/admission/resourcequota/controller.go: "exceeded quota: %s, requested: %s,
// used: %s, limited: %s", prettyPrint sorting the names), and the image pull failure marker.
#include "kubesim/controllers/quota_admission.h"
#include "test_controllers_fixture.h"

using namespace kubesim;
using namespace kubesim::testing;

namespace {

json quota_test_pod(const std::string& name, int gpus, const std::string& image = "registry.example/train:1") {
  json c = gpu_container("main", "sleep 3600", gpus);
  c["image"] = image;
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata", {{"name", name}, {"namespace", "default"}}},
          {"spec", {{"restartPolicy", "Never"}, {"containers", json::array({c})}}}};
}

}  // namespace

TEST_CASE("a pod's quota usage and quantities as resource.Quantity prints them", "[quota]") {
  json p = quota_test_pod("p", 2);
  p["spec"]["containers"][0]["resources"]["requests"] = {{"cpu", "500m"}, {"memory", "1Gi"}};
  const auto u = pod_quota_usage(p);
  CHECK(u.at("pods") == 1);
  CHECK(u.at("requests.nvidia.com/gpu") == 2);  // requests default to limits
  CHECK(u.at("requests.cpu") == 500);
  CHECK(u.at("memory") == 1LL << 30);
  CHECK(quota_quantity("requests.cpu", 500) == "500m");
  CHECK(quota_quantity("requests.cpu", 2000) == "2");
  CHECK(quota_quantity("requests.memory", 3LL << 30) == "3Gi");
  CHECK(quota_quantity("requests.nvidia.com/gpu", 4) == "4");
}

TEST_CASE("a pod create beyond a ResourceQuota is refused with kube-apiserver's message", "[quota]") {
  SimFixture f;
  f.create("", "v1", "resourcequotas",
           {{"apiVersion", "v1"},
            {"kind", "ResourceQuota"},
            {"metadata", {{"name", "gpu-quota"}, {"namespace", "default"}}},
            {"spec", {{"hard", {{"requests.nvidia.com/gpu", "3"}, {"pods", "10"}}}}}});
  f.create("", "v1", "pods", quota_test_pod("first", 2));
  try {
    f.create("", "v1", "pods", quota_test_pod("second", 2));
    FAIL("the second pod was admitted");
  } catch (const StatusError& e) {
    CHECK(e.code == 403);
    CHECK(e.reason == "Forbidden");
    CHECK(e.message ==
          "pods \"second\" is forbidden: exceeded quota: gpu-quota, requested: requests.nvidia.com/gpu=2, "
          "used: "
          "requests.nvidia.com/gpu=2, limited: requests.nvidia.com/gpu=3");
  }
  f.create("", "v1", "pods", quota_test_pod("third", 1));  // 3 of 3
}

TEST_CASE("an image named with the pull-error marker waits in ErrImagePull, then ImagePullBackOff",
          "[kubelet]") {
  SimFixture f;
  f.create("", "v1", "pods", quota_test_pod("bad", 0, "registry.example/kubesim-pull-error:1"));
  for (int i = 0; i < 20; ++i) f.step(std::chrono::milliseconds(1000));
  const json p = f.pod("bad");
  CHECK(p["status"]["phase"] == "Pending");
  const auto& waiting = p["status"]["containerStatuses"][0]["state"]["waiting"];
  CHECK(waiting["reason"] == "ImagePullBackOff");
  CHECK(waiting["message"] == "Back-off pulling image \"registry.example/kubesim-pull-error:1\"");
  bool failed_pull = false;
  for (const auto& e : f.list("", "v1", "events"))
    failed_pull = failed_pull ||
                  e["message"].get<std::string>().rfind(
                      "Failed to pull image \"registry.example/kubesim-pull-error:1\": rpc error:", 0) == 0;
  CHECK(failed_pull);
}
