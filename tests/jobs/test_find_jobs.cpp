// find_jobs: the one way commands find jobs by name, each name found, missing or ambiguous.
#include <catch2/catch.hpp>

#include "core/errors.h"
#include "jobs/find_jobs.h"
#include "jobs/job_fixtures.h"
#include "jobs/job_query.h"
#include "support/fake_client.h"

using namespace trainctl;
using jobs::NameMatch;
using nlohmann::json;
using testing::FakeClient;

namespace {

std::string path_of(const jobs::JobKind& k, const std::string& name) {
  return k.resource.object_path("default", name);
}

// Every kind answers 404 for `name` but those in `held`, which answer with their object.
void stub(FakeClient& c, const std::string& name, const std::vector<std::pair<std::string, json>>& held) {
  for (const auto& k : jobs::all_kinds()) {
    bool found = false;
    for (const auto& h : held) {
      if (h.first != k.name) continue;
      c.on_get(path_of(k, name), h.second);
      found = true;
    }
    if (!found) c.on_not_found(path_of(k, name));
  }
}

}  // namespace

TEST_CASE("find_jobs: each name is found, missing or ambiguous, from one round of GETs") {
  FakeClient c;
  stub(c, "a", {{"pytorchjob", fixtures::pytorchjob("a", "2024-05-01T09:00:00Z", 1, 1)}});
  stub(c, "b", {});
  stub(c, "x", {{"pytorchjob", fixtures::pytorchjob("x", "2024-05-01T09:00:00Z", 1, 1)},
                {"mpijob", fixtures::mpijob("x", "2024-05-01T09:00:00Z", 1, 1)}});
  // A plain batch Job of that name (no trainctl labels) is not a training job.
  stub(c, "plain", {{"batchjob", json{{"metadata", {{"name", "plain"}, {"namespace", "default"}}}}}});
  const auto found = jobs::find_jobs(c, "default", {"a", "b", "x", "plain"}, jobs::kinds_for_type(""));
  REQUIRE(c.batches().size() == 1);
  CHECK(c.batches()[0] == 4 * jobs::all_kinds().size());
  REQUIRE(found.names.size() == 4);
  const NameMatch& a = found.names[0];
  const NameMatch& b = found.names[1];
  const NameMatch& x = found.names[2];
  const NameMatch& plain = found.names[3];
  CHECK(a.outcome == NameMatch::Outcome::Found);
  CHECK(a.kind().name == "pytorchjob");
  CHECK(a.object["metadata"]["name"] == "a");
  CHECK(a.message("default").empty());
  CHECK(b.outcome == NameMatch::Outcome::Missing);
  CHECK(b.message("default") == "job b not found in namespace default");
  CHECK(x.outcome == NameMatch::Outcome::Ambiguous);
  CHECK(x.message("default") ==
        "there is more than one training job named x (pytorchjob, mpijob): choose one with -T/--type");
  CHECK(plain.outcome == NameMatch::Outcome::Missing);
  CHECK(found.missing() == 2);
  CHECK(found.ambiguous() == 1);
  CHECK_NOTHROW(c.verify());
}

TEST_CASE("find_job: one name, its error thrown: NotFoundError when missing, UsageError when ambiguous") {
  FakeClient c;
  stub(c, "b", {});
  CHECK_THROWS_MATCHES(jobs::find_job(c, "default", "b", jobs::kinds_for_type("")),
                       NotFoundError, Catch::Message("job b not found in namespace default"));
  FakeClient d;
  stub(d, "x", {{"pytorchjob", fixtures::pytorchjob("x", "2024-05-01T09:00:00Z", 1, 1)},
                {"mpijob", fixtures::mpijob("x", "2024-05-01T09:00:00Z", 1, 1)}});
  CHECK_THROWS_MATCHES(
      jobs::find_job(d, "default", "x", jobs::kinds_for_type("")), UsageError,
      Catch::Message("there is more than one training job named x (pytorchjob, mpijob): choose one with -T/--type"));
  // -T mpi leaves one kind: the name is found.
  FakeClient e;
  e.on_get(path_of(jobs::kind_named("mpijob"), "x"), fixtures::mpijob("x", "2024-05-01T09:00:00Z", 1, 1));
  const auto m = jobs::find_job(e, "default", "x", jobs::kinds_for_type("mpi"));
  CHECK(m.kind().name == "mpijob");
  CHECK_NOTHROW(e.verify());
}
