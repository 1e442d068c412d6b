#include <catch2/catch.hpp>

#include "core/errors.h"
#include "jobs/job_query.h"
#include "jobs/cluster/node_usage.h"
#include "support/fake_client.h"

using nlohmann::json;
using trainctl::testing::FakeClient;
using namespace trainctl::jobs;

TEST_CASE("tensorboard_url: a LoadBalancer ingress IP wins; else the NodePort on the chief's host") {
  json lb = {
      {"spec", {{"type", "LoadBalancer"}, {"ports", json::array({{{"port", 6006}, {"nodePort", 31000}}})}}},
      {"status", {{"loadBalancer", {{"ingress", json::array({{{"ip", "47.1.2.3"}}})}}}}}};
  CHECK(tensorboard_url({lb}, "10.0.0.9") == "http://47.1.2.3:6006");
  json np = {
      {"spec", {{"type", "NodePort"}, {"ports", json::array({{{"port", 6006}, {"nodePort", 31000}}})}}}};
  CHECK(tensorboard_url({np}, "10.0.0.9") == "http://10.0.0.9:31000");
  CHECK(tensorboard_url({np}, "").empty());  // no scheduled chief: no host to name
  json cluster_ip = {{"spec", {{"type", "ClusterIP"}, {"ports", json::array({{{"port", 6006}}})}}}};
  CHECK(tensorboard_url({cluster_ip}, "10.0.0.9").empty());
}

TEST_CASE("kinds_for_type: pytorch covers the operator and the operator-free kind") {
  auto k = kinds_for_type("py");
  REQUIRE(k.size() == 2);
  CHECK(k[0]->name == "pytorchjob");
  CHECK(k[1]->name == "batchjob");
  CHECK(kinds_for_type("").size() == 6);
  CHECK(kinds_for_type("VJ").front()->name == "volcanojob");
  REQUIRE(kinds_for_type("tf").size() == 1);
  CHECK(kinds_for_type("tf").front()->name == "tfjob");
}

TEST_CASE("node_usage: GPU-share nodes count aliyun.com/gpu-count; completed pods free their GPUs") {
  json share = {{"metadata", {{"name", "s"}}},
                {"status",
                 {{"capacity", {{"aliyun.com/gpu-count", "2"}, {"aliyun.com/gpu-mem", "32"}}},
                  {"allocatable", {{"aliyun.com/gpu-count", "2"}, {"aliyun.com/gpu-mem", "32"}}}}}};
  json excl = {
      {"metadata",
       {{"name", "e"},
        {"labels", {{"node-role.kubernetes.io/worker", ""}, {"node-role.kubernetes.io/gpu", ""}}}}},
      {"status", {{"capacity", {{"nvidia.com/gpu", "4"}}}, {"allocatable", {{"nvidia.com/gpu", "4"}}}}}};
  auto pod = [](const std::string& node, const std::string& res, int n, const std::string& phase) {
    return json{{"metadata", {{"name", "p-" + node + phase}, {"namespace", "default"}}},
                {"spec",
                 {{"nodeName", node},
                  {"containers", json::array({{{"resources", {{"limits", {{res, std::to_string(n)}}}}}}})}}},
                {"status", {{"phase", phase}}}};
  };
  auto u = node_usage({share, excl},
                      {pod("s", "aliyun.com/gpu-count", 1, "Running"),
                       pod("e", "nvidia.com/gpu", 2, "Running"), pod("e", "nvidia.com/gpu", 2, "Succeeded")});
  REQUIRE(u.size() == 2);
  CHECK(u[0].name == "e");
  CHECK(u[0].mode == NodeMode::Exclusive);
  CHECK(u[0].role == "gpu,worker");
  CHECK(u[0].allocated == 2);
  CHECK(u[0].status == "notready");
  CHECK(u[1].mode == NodeMode::Share);
  CHECK(u[1].total == 2);
  CHECK(u[1].allocated == 1);
}
