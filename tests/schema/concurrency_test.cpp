// A SchemaSet is shared by the simulator's request threads: lookups that parse an OpenAPI
// document on first use must be safe from several threads at once.
#include <catch2/catch.hpp>
#include <thread>

#include "fixtures.h"
#include "manifests.h"
#include "support/paths.h"

using namespace trainctl::schema;
using namespace trainctl::schema::test;

TEST_CASE("concurrent first lookups and validations agree", "[schema][threads]") {
  const auto set = SchemaSet::load_dir(trainctl::testing::require_schema_dir());
  const auto deployment = yaml(kDeployment);
  const auto job = yaml(kIndexedJob);
  const auto pytorch = yaml(kPyTorchJob);
  constexpr int kThreads = 4;
  std::vector<const Schema*> pods(kThreads, nullptr);
  std::vector<int> ok(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      pods[t] = set.find("v1", "Pod");
      for (int i = 0; i < 5; ++i) {
        ok[t] += set.validate(deployment).ok() ? 1 : 0;
        ok[t] += set.validate(job).ok() ? 1 : 0;
        ok[t] += set.validate(pytorch).ok() ? 1 : 0;
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) {
    CHECK(pods[t] != nullptr);
    CHECK(pods[t] == pods[0]);
    CHECK(ok[t] == 15);
  }
}
