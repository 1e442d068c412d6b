// --kueue-queue on the cluster: the job is held only when the create answer shows it
// suspended where Kueue's webhook suspends its kind. Otherwise (Kueue v0.19's default
// configuration for PyTorchJob and TFJob, a disabled integration, no Kueue at all) the job is
// deleted before anything else is created, and one line says why and what works instead.
// The suspend fields below are written from kueue v0.19.2 (pkg/controller/jobs/kubeflow/
// kubeflowjob IsSuspended, jobs/mpijob, jobs/job), not read from trainctl's kinds.
#include <catch2/catch.hpp>

#include "core/errors.h"
#include "jobs/kind.h"
#include "scripted_client.h"
#include "submit/create.h"
#include "submit/plan.h"
#include "submit/submit_kind.h"
#include "submit_testing.h"

using namespace trainctl;
using namespace trainctl::testing;
using nlohmann::json;

namespace {

struct Case {
  std::string command;
  std::vector<std::string> extra;  // flags choosing the kind
  std::string plural;              // of the job's collection
  json::json_pointer suspend;      // where Kueue's webhook suspends it
  std::string framework;
};

const std::vector<Case>& cases() {
  static const std::vector<Case> c = {
      {"pytorch", {}, "pytorchjobs", json::json_pointer("/spec/runPolicy/suspend"), "kubeflow.org/pytorchjob"},
      {"tf", {}, "tfjobs", json::json_pointer("/spec/runPolicy/suspend"), "kubeflow.org/tfjob"},
      {"mpi", {}, "mpijobs", json::json_pointer("/spec/runPolicy/suspend"), "kubeflow.org/mpijob"},
      {"pytorch", {"--operator=none"}, "jobs", json::json_pointer("/spec/suspend"), "batch/job"},
  };
  return c;
}

submit::Plan plan_of(const Case& c) {
  std::vector<std::string> args = {"--name=q1", "--image=img", "--workers=2", "--kueue-queue=team-a",
                                   "--tensorboard"};
  args.insert(args.end(), c.extra.begin(), c.extra.end());
  args.push_back("python train.py");
  return submit::make_plan(parse_submit(c.command, args), "ns1", {});
}

// An API server with Kueue installed whose webhook suspends the job or not.
ScriptedClient cluster(const Case& c, bool webhook_suspends, bool kueue_served = true) {
  return ScriptedClient([=](const kube::Request& r, int) -> kube::Response {
    if (r.method == "GET" && r.path == "/apis/kueue.x-k8s.io") {
      if (!kueue_served) ScriptedClient::fail(404, "NotFound", "the server could not find the requested resource");
      return ScriptedClient::ok({{"kind", "APIGroup"}, {"name", "kueue.x-k8s.io"}}, 200);
    }
    if (r.method == "DELETE") return ScriptedClient::ok({{"kind", "Status"}, {"status", "Success"}}, 200);
    json o = json::parse(r.body);
    o["metadata"]["uid"] = "uid-1";
    if (webhook_suspends && r.path.find("/" + c.plural + "?") != std::string::npos) o[c.suspend] = true;
    return ScriptedClient::ok(o);
  });
}

std::vector<std::string> calls(const ScriptedClient& client) {
  std::vector<std::string> out;
  for (const auto& r : client.requests()) out.push_back(r.method + " " + r.path.substr(0, r.path.find('?')));
  return out;
}

}  // namespace

TEST_CASE("kueue create: a job Kueue did not suspend is deleted, nothing else is created", "[kueue][create]") {
  for (const auto& c : cases()) {
    INFO(c.command << " " << c.plural);
    const submit::Plan plan = plan_of(c);
    auto objects = render_submit_plan(plan);
    REQUIRE(objects.size() > 1);  // the job and TensorBoard's objects
    ScriptedClient client = cluster(c, false);
    const std::string job_path = plan.kind->resource.object_path("ns1", "q1");
    try {
      submit::create_all(client, *plan.submit_kind, "ns1", objects);
      FAIL("no error");
    } catch (const UsageError&) {
      FAIL("not a usage error: the command line was valid");
    } catch (const Error& e) {
      const std::string msg = e.what();
      CHECK(e.code() == ExitCode::Error);
      CHECK(msg.find('\n') == std::string::npos);
      CHECK_THAT(msg, Catch::Contains("--kueue-queue team-a: Kueue did not suspend " + plan.kind->resource.kind +
                                      " q1, so it would start at once past the queue's quota: the " + c.framework +
                                      " integration is not enabled in this cluster's Kueue"));
      CHECK_THAT(msg, Catch::Contains("; deleted it. "));
      CHECK_THAT(msg, Catch::Contains("ask the cluster admin to add " + c.framework +
                                      " to integrations.frameworks in Kueue's configuration"));
    }
    CHECK(calls(client) == std::vector<std::string>{"POST " + plan.kind->resource.collection_path("ns1"),
                                                    "GET /apis/kueue.x-k8s.io", "DELETE " + job_path});
    CHECK(json::parse(client.requests().back().body)["propagationPolicy"] == "Background");
  }
}

TEST_CASE("kueue create: PyTorchJob and TFJob name v0.19 and what works instead", "[kueue][create]") {
  auto message = [](const Case& c) {
    ScriptedClient client = cluster(c, false);
    const submit::Plan plan = plan_of(c);
    try {
      submit::create_all(client, *plan.submit_kind, "ns1", render_submit_plan(plan));
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string pytorch = message(cases()[0]);
  CHECK_THAT(pytorch, Catch::Contains("(Kueue v0.19.0 and later ship it disabled)"));
  CHECK_THAT(pytorch, Catch::Contains("Instead, submit it with --operator none (a batch/v1 Job), as an MPIJob "
                                      "(trainctl submit mpi) or as a TrainJob, or ask the cluster admin"));
  const std::string tf = message(cases()[1]);
  CHECK_THAT(tf, Catch::Contains("(Kueue v0.19.0 and later ship it disabled)"));
  CHECK_THAT(tf, Catch::Contains("Instead, submit it as an MPIJob (trainctl submit mpi) or as a TrainJob"));
  // MPIJob and batch/job are on in every shipped configuration: only the admin can help.
  for (const Case* c : {&cases()[2], &cases()[3]}) {
    const std::string msg = message(*c);
    CHECK_THAT(msg, !Catch::Contains("ship it disabled"));
    CHECK_THAT(msg, Catch::Contains("To queue it, ask the cluster admin"));
  }
}

TEST_CASE("kueue create: without Kueue the line says it is not installed", "[kueue][create]") {
  const Case& c = cases()[0];
  ScriptedClient client = cluster(c, false, false);
  const submit::Plan plan = plan_of(c);
  CHECK_THROWS_WITH(submit::create_all(client, *plan.submit_kind, "ns1", render_submit_plan(plan)),
                    "--kueue-queue team-a: Kueue is not installed on this cluster (no kueue.x-k8s.io API), so "
                    "PyTorchJob q1 would start at once instead of waiting in a queue; deleted it. Submit it without "
                    "--kueue-queue, or install Kueue");
  CHECK(calls(client).back() == "DELETE /apis/kubeflow.org/v1/namespaces/ns1/pytorchjobs/q1");
}

TEST_CASE("kueue create: a job Kueue suspended goes on with the rest of the submit", "[kueue][create]") {
  for (const auto& c : cases()) {
    INFO(c.command << " " << c.plural);
    const submit::Plan plan = plan_of(c);
    const auto objects = render_submit_plan(plan);
    ScriptedClient client = cluster(c, true);
    const auto created = submit::create_all(client, *plan.submit_kind, "ns1", objects);
    CHECK(created.size() == objects.size());
    for (const auto& call : calls(client)) CHECK(call.rfind("POST ", 0) == 0);
  }
}

TEST_CASE("kueue create: a job without a queue is not checked", "[kueue][create]") {
  const submit::Plan plan =
      submit::make_plan(parse_submit("pytorch", {"--name=q1", "--image=img", "python train.py"}), "ns1", {});
  ScriptedClient client = cluster(cases()[0], false);
  CHECK(submit::create_all(client, *plan.submit_kind, "ns1", render_submit_plan(plan)).size() == 1);
  CHECK(calls(client).size() == 1);
}

TEST_CASE("kueue create: a failed delete is said, with how to remove the job", "[kueue][create]") {
  const Case& c = cases()[0];
  ScriptedClient client([](const kube::Request& r, int) -> kube::Response {
    if (r.method == "DELETE") ScriptedClient::fail(403, "Forbidden", "pytorchjobs \"q1\" is forbidden");
    if (r.method == "GET") return ScriptedClient::ok({{"kind", "APIGroup"}}, 200);
    return ScriptedClient::ok(json::parse(r.body));
  });
  const submit::Plan plan = plan_of(c);
  CHECK_THROWS_WITH(submit::create_all(client, *plan.submit_kind, "ns1", render_submit_plan(plan)),
                    Catch::Contains("; could not delete it (pytorchjobs \"q1\" is forbidden): delete it with "
                                    "trainctl delete q1. "));
}

TEST_CASE("kueue create: every kind --kueue-queue accepts says where Kueue suspends it", "[kueue]") {
  for (const submit::SubmitKind* k : submit::submit_kinds()) {
    const auto& kind = *k;
    INFO(kind.job.resource.display());
    CHECK(kind.rules.no_kueue_reason.empty() == !kind.rules.kueue.suspend_field.empty());
    CHECK(kind.rules.no_kueue_reason.empty() == !kind.rules.kueue.framework.empty());
  }
}
