#include <catch2/catch.hpp>

#include "core/errors.h"
#include "job_fixtures.h"
#include "jobs/job_summary.h"
#include "jobs/kind.h"
#include "jobs/status_rules.h"

using namespace fixtures;
using namespace trainctl::jobs;

static const char* const kKindsCreated = "2024-05-01T09:50:00Z";

TEST_CASE("every kind holds its whole strategy") {
  REQUIRE(all_kinds().size() == 6);
  for (const auto& k : all_kinds()) {
    CAPTURE(k.resource.display(), k.list_selector);
    CHECK(&kind_named(k.name) == &k);
    CHECK(!k.type.empty());
    CHECK(!k.trainer_name.empty());
    CHECK(!k.created_by.empty());
    CHECK(!k.resource.kind.empty());
    CHECK(!k.pod_job_label.empty());
    CHECK(!k.chief_label.empty());
    CHECK(!k.chief_value.empty());
    REQUIRE(k.status_rules != nullptr);
    CHECK(k.status_rules->status != nullptr);
    CHECK(k.status_rules->times != nullptr);
    CHECK(k.status_rules->duration != nullptr);  // with_chief may be null: the chief changes nothing
    CHECK(k.spec_gpus != nullptr);
    CHECK(k.chief_task != nullptr);  // chief_value_from_pod may be null: the pods carry the label
    // A label read from an annotation names the chief or the task (TrainJob: its chief
    // fallbacks read the completion index).
    for (const auto& key : k.pod_labels_from_annotations) {
      bool in_fallback = false;
      for (const auto& rule : k.chief_fallbacks)
        in_fallback = in_fallback || rule.find(key + "=") != std::string::npos;
      CHECK((key == k.chief_label || key == k.pod_task_label || in_fallback));
    }
    if (!k.type_names.empty()) CHECK(k.type_names.front() == k.type);
  }
}

TEST_CASE("spec GPUs and the chief task come from each kind's spec") {
  struct Case {
    std::string kind;
    json job;
    long long gpus;
    std::string chief_task;
  };
  json no_completions = batchjob("c", kKindsCreated, json::object());
  no_completions["spec"].erase("completions");
  no_completions["spec"]["parallelism"] = 3;
  json neither = no_completions;
  neither["spec"].erase("parallelism");
  const std::vector<Case> cases = {
      {"pytorchjob", pytorchjob("a", kKindsCreated, 3, 2), 6, "master"},  // master + 2 workers, 2 GPUs each
      {"mpijob", mpijob("m", kKindsCreated, 2, 4), 8, ""},                // the launcher asks for none
      {"volcanojob", volcanojob("v", kKindsCreated, nullptr), 2, "pserver"},  // 1 pserver, 2 trainers x 1
      {"batchjob", batchjob("b", kKindsCreated, json::object()), 2, ""},      // completions 2 x 1
      {"batchjob", no_completions, 3, ""},                                    // parallelism
      {"batchjob", neither, 1, ""},
      {"tfjob", tfjob("t", kKindsCreated, 1, 2, 1), 3, ""},  // 1 ps + 2 workers x 1
  };
  for (const auto& c : cases) {
    const JobKind& kind = kind_named(c.kind);
    CAPTURE(kind.resource.display(), c.job.dump());
    CHECK(spec_requested_gpus(kind, c.job) == c.gpus);
    const JobSummary s = summarize_job(kind, c.job);
    CHECK(s.spec_gpus == c.gpus);
    CHECK(s.chief_task == c.chief_task);
  }
  // A kind reads only its own spec fields.
  CHECK(spec_requested_gpus(kind_named("mpijob"), pytorchjob("a", kKindsCreated, 3, 2)) == 0);
  // (A spec without a Master replica: the operator's master role is worker 0.)
  CHECK(summarize_job(kind_named("pytorchjob"), volcanojob("v", kKindsCreated, nullptr)).chief_task ==
        "worker");
}

TEST_CASE("kind_for_type: each kind's type names, case-insensitively") {
  for (const char* t : {"pytorchjob", "PyTorch", "py"}) CHECK(kind_for_type(t).name == "pytorchjob");
  for (const char* t : {"mpijob", "MPI", "mj"}) CHECK(kind_for_type(t).name == "mpijob");
  for (const char* t : {"volcanojob", "volcano", "VJ"}) CHECK(kind_for_type(t).name == "volcanojob");
  for (const char* t : {"tfjob", "TensorFlow", "tf"}) CHECK(kind_for_type(t).name == "tfjob");
  CHECK_THROWS_WITH(kind_for_type("xgb"),
                    "unknown job type \"xgb\": use pytorchjob (pytorch, py), mpijob (mpi, mj), volcanojob "
                    "(volcano, vj), tfjob (tensorflow, tf) or trainjob (tj)");
}
