// Expected values follow kubectl's printPod (pkg/printers/internalversion/printers.go).
#include <catch2/catch.hpp>

#include "job_fixtures.h"
#include "jobs/gpu.h"
#include "jobs/pod_status.h"
#include "jobs/time.h"

using nlohmann::json;
using trainctl::jobs::pod_display_status;

namespace {
json with_init(const json& init_status, const std::string& phase = "Pending") {
  json p = {
      {"metadata", {{"name", "p"}}},
      {"spec",
       {{"initContainers", json::array({{{"name", "init-code"}}, {{"name", "second"}}})},
        {"containers", json::array({{{"name", "main"}}})}}},
      {"status",
       {{"phase", phase},
        {"initContainerStatuses", json::array({init_status})},
        {"containerStatuses", json::array({{{"name", "main"},
                                            {"ready", false},
                                            {"state", {{"waiting", {{"reason", "PodInitializing"}}}}}}})}}}};
  return p;
}
}  // namespace

TEST_CASE("init containers: running shows Init:i/n, failures show Init:<reason>") {
  CHECK(pod_display_status(with_init({{"name", "init-code"}, {"state", {{"running", json::object()}}}})) ==
        "Init:0/2");
  CHECK(pod_display_status(
            with_init({{"name", "init-code"}, {"state", {{"waiting", {{"reason", "CrashLoopBackOff"}}}}}})) ==
        "Init:CrashLoopBackOff");
  CHECK(pod_display_status(with_init(
            {{"name", "init-code"}, {"state", {{"terminated", {{"exitCode", 2}}}}}})) == "Init:ExitCode:2");
  CHECK(pod_display_status(with_init(
            {{"name", "init-code"}, {"state", {{"terminated", {{"exitCode", 1}, {"reason", "Error"}}}}}})) ==
        "Init:Error");
  CHECK(pod_display_status(with_init(
            {{"name", "init-code"}, {"state", {{"terminated", {{"exitCode", 137}, {"signal", 9}}}}}})) ==
        "Init:Signal:9");
}

TEST_CASE("init done: the main container's waiting reason shows (PodInitializing, ContainerCreating)") {
  json p = with_init(
      {{"name", "init-code"}, {"state", {{"terminated", {{"exitCode", 0}, {"reason", "Completed"}}}}}});
  p["status"]["initContainerStatuses"].push_back(
      {{"name", "second"}, {"state", {{"terminated", {{"exitCode", 0}}}}}});
  CHECK(pod_display_status(p) == "PodInitializing");
  p["status"]["containerStatuses"][0]["state"] = {{"waiting", {{"reason", "ContainerCreating"}}}};
  CHECK(pod_display_status(p) == "ContainerCreating");
}

TEST_CASE("phases and container states") {
  using namespace fixtures;
  CHECK(pod_display_status(pod("a", json::object(), "Running", 0, "node-1")) == "Running");
  CHECK(pod_display_status(pod("a", json::object(), "Succeeded", 0, "node-1")) == "Completed");
  CHECK(pod_display_status(pod("a", json::object(), "Failed", 0, "node-1")) == "Error");
  CHECK(pod_display_status(pod("a", json::object(), "Pending", 0)) == "Pending");
  json oom = pod("a", json::object(), "Running", 0, "node-1");
  oom["status"]["containerStatuses"][0]["state"] = {
      {"terminated", {{"exitCode", 137}, {"reason", "OOMKilled"}}}};
  CHECK(pod_display_status(oom) == "OOMKilled");
  json noreason = pod("a", json::object(), "Failed", 0, "node-1");
  noreason["status"]["containerStatuses"][0]["state"] = {{"terminated", {{"exitCode", 3}}}};
  CHECK(pod_display_status(noreason) == "ExitCode:3");
  json evicted = pod("a", json::object(), "Failed", 0, "node-1");
  evicted["status"]["reason"] = "Evicted";
  evicted["status"].erase("containerStatuses");
  CHECK(pod_display_status(evicted) == "Evicted");
}

TEST_CASE("a completed container next to a running ready one shows Running") {
  json p = fixtures::pod("a", json::object(), "Running", 0, "node-1");
  p["status"]["containerStatuses"].push_back(
      {{"name", "sidecar"},
       {"ready", false},
       {"state", {{"terminated", {{"exitCode", 0}, {"reason", "Completed"}}}}}});
  CHECK(pod_display_status(p) == "Running");
  p["status"]["conditions"][0]["status"] = "False";
  CHECK(pod_display_status(p) == "NotReady");
}

TEST_CASE("deletion shows Terminating, or Unknown when the node is lost") {
  json p = fixtures::pod("a", json::object(), "Running", 0, "node-1");
  p["metadata"]["deletionTimestamp"] = "2024-05-01T09:59:00Z";
  CHECK(pod_display_status(p) == "Terminating");
  p["status"]["reason"] = "NodeLost";
  CHECK(pod_display_status(p) == "Unknown");
  // A pod that has ended keeps showing how it ended while it is deleted (kubectl's printPod:
  // Terminating only when the phase is not terminal).
  for (const char* phase : {"Succeeded", "Failed"}) {
    json done = fixtures::pod("b", json::object(), phase, 0, "node-1");
    done["metadata"]["deletionTimestamp"] = "2024-05-01T09:59:00Z";
    CHECK(pod_display_status(done) == (std::string(phase) == "Succeeded" ? "Completed" : "Error"));
  }
}

TEST_CASE("scheduling gates") {
  json p = {
      {"status",
       {{"phase", "Pending"},
        {"conditions",
         json::array({{{"type", "PodScheduled"}, {"status", "False"}, {"reason", "SchedulingGated"}}})}}}};
  CHECK(pod_display_status(p) == "SchedulingGated");
}

TEST_CASE("GPU counts: nvidia.com/gpu, the alpha name, aliyun.com/gpu for instances") {
  json p = {
      {"spec",
       {{"containers", json::array({{{"resources", {{"limits", {{"nvidia.com/gpu", "2"}}}}}},
                                    {{"resources", {{"limits", {{"alpha.kubernetes.io/nvidia-gpu", 1}}}}}},
                                    {{"resources", {{"limits", {{"aliyun.com/gpu", "4"}}}}}}})}}},
      {"status", {{"phase", "Running"}, {"startTime", "2024-05-01T09:00:00Z"}}}};
  CHECK(trainctl::jobs::pod_nvidia_gpus(p) == 3);
  CHECK(trainctl::jobs::pod_gpus(p) == 7);
}

TEST_CASE("RFC 3339 parsing with fractions and offsets") {
  using trainctl::jobs::format_rfc3339;
  using trainctl::jobs::parse_time;
  CHECK(format_rfc3339(*parse_time("2024-05-01T10:00:00Z")) == "2024-05-01T10:00:00Z");
  CHECK(format_rfc3339(*parse_time("2024-05-01T18:00:00+08:00")) == "2024-05-01T10:00:00Z");
  auto a = *parse_time("2024-05-01T10:00:00.1Z");
  auto b = *parse_time("2024-05-01T10:00:00.123456789Z");
  CHECK(a < b);
  CHECK_FALSE(parse_time("yesterday").has_value());
  CHECK_FALSE(parse_time("").has_value());
}
