// list's and get's STATUS come from the same rule as submit --wait's: every row of the status
// table (tests/jobs/status_table.h), served as the only job of its kind, shows its status.
#include <catch2/catch.hpp>
#include <sstream>

#include "cmd_harness.h"
#include "get_stubs.h"
#include "queue_stubs.h"
#include "jobs/status_table.h"

using nlohmann::json;
using trainctl::testing::FakeClient;

namespace {

// The kind's index in get_stubs' paths: its place in the registry.
int kind_index(const std::string& kind) {
  return static_cast<int>(trainctl::jobs::kind_order(&trainctl::jobs::kind_named(kind)));
}

// The NAME and STATUS words of list's rows after the header.
std::vector<std::pair<std::string, std::string>> list_rows(const std::string& out) {
  std::vector<std::pair<std::string, std::string>> rows;
  std::istringstream in(out);
  std::string line;
  std::getline(in, line);  // the header
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string name, status;
    words >> name >> status;
    rows.emplace_back(name, status);
  }
  return rows;
}

}  // namespace

TEST_CASE("status table: list's STATUS column shows each row's status") {
  for (const auto& row : status_table::rows()) {
    const std::string expected = trainctl::jobs::status_name(row.expected);
    CAPTURE(row.rule, expected);
    Harness h;
    auto& c = *h.client;
    const int k = kind_index(row.kind);
    const json job = status_table::job_of(row, "demo");
    const auto only = [&](int kind) {
      return FakeClient::list(k == kind ? json::array({job}) : json::array());
    };
    c.on_get(paths::kPyTorchJobs, only(0));
    c.on_get(paths::kMPIJobs, only(1));
    c.on_get(paths::kVolcanoJobs, only(2));
    c.on_get(paths::kBatchJobs, only(3));
    c.on_get(paths::kTFJobs, only(4));
    c.on_get(paths::kTrainJobs, only(5));
    c.on_get(paths::kJobSetPods, FakeClient::list(json::array()));
    c.on_get(paths::kLegacyPods, FakeClient::list(json::array()));
    c.on_get(paths::kTrainingPods, FakeClient::list(json::array()));
    c.on_get(paths::kVolcanoPods, FakeClient::list(json::array()));
    c.on_get(paths::kBatchPods, FakeClient::list(json::array()));
    h.run({"list"});
    CHECK(list_rows(h.out()) == std::vector<std::pair<std::string, std::string>>{{"demo", expected}});
    CHECK(h.err().empty());
  }
}

TEST_CASE("status table: get's Status line shows each row's status") {
  for (const auto& row : status_table::rows()) {
    const std::string expected = trainctl::jobs::status_name(row.expected);
    CAPTURE(row.rule, expected);
    Harness h;
    get_stubs::stub_job(*h.client, kind_index(row.kind), "demo", status_table::job_of(row, "demo"),
                        json::array());
    get_stubs::stub_tensorboard(*h.client, "demo", json::array());
    // A PENDING or QUEUING job is explained from one more round of reads: here nothing
    // explains it, and get prints no Pending line. It has no pod waiting for a node, so the
    // nodes and the cluster's pods are not read.
    const bool pending = row.expected == trainctl::jobs::JobStatus::Pending ||
                         row.expected == trainctl::jobs::JobStatus::Queuing;
    if (pending) get_stubs::stub_pending_without_room(*h.client, json::array());
    if (pending) queue_stubs::stub_no_queues(*h.client);
    h.run({"get", "demo"});
    CHECK(h.out().rfind("Name:        demo\nStatus:      " + expected + "\n", 0) == 0);
    CHECK(h.out().find("Pending:") == std::string::npos);
    CHECK_NOTHROW(h.client->verify());
  }
}
