// Creating a submit on the cluster is all or nothing: the job first, dependents owned by it,
// and on any failure everything already created is deleted before the error is reported.
#include <catch2/catch.hpp>
#include <tuple>

#include "core/errors.h"
#include "kube/resource.h"
#include "scripted_client.h"
#include "submit/create.h"
#include "submit/kinds/kinds.h"
#include "submit/plan.h"
#include "submit/submit_kind.h"
#include "submit_testing.h"

using namespace trainctl;
using namespace trainctl::testing;
using nlohmann::json;

namespace {

// pytorch + TensorBoard: PyTorchJob, Deployment, Service.
std::vector<json> three_objects() {
  return render_submit(
      parse_submit("pytorch", {"--name=demo", "--image=busybox", "--tensorboard", "sleep 1"}), "ns1");
}

const submit::SubmitKind& pytorch() { return submit::kinds::pytorchjob(); }

// Echoes the posted object back with a uid, as the API server does.
kube::Response echo(const kube::Request& r) {
  json o = json::parse(r.body);
  o["metadata"]["uid"] =
      "uid-" + o["metadata"]["name"].get<std::string>() + "-" + o["kind"].get<std::string>();
  return ScriptedClient::ok(o);
}

// The message of the Error the create of three_objects() ends with.
std::string create_error(ScriptedClient& client) {
  try {
    submit::create_all(client, pytorch(), "ns1", three_objects());
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

std::vector<std::string> verbs_and_paths(const ScriptedClient& c) {
  std::vector<std::string> out;
  for (const auto& r : c.requests()) out.push_back(r.method + " " + r.path);
  return out;
}

}  // namespace

TEST_CASE("create: the job first, then dependents with an ownerReference to its uid", "[create]") {
  ScriptedClient client([](const kube::Request& r, int) { return echo(r); });
  auto created = submit::create_all(client, pytorch(), "ns1", three_objects());
  CHECK(
      verbs_and_paths(client) ==
      std::vector<std::string>{"POST /apis/kubeflow.org/v1/namespaces/ns1/pytorchjobs?fieldValidation=Strict",
                               "POST /apis/apps/v1/namespaces/ns1/deployments?fieldValidation=Strict",
                               "POST /api/v1/namespaces/ns1/services?fieldValidation=Strict"});
  REQUIRE(created.size() == 3);
  CHECK_FALSE(json::parse(client.requests()[0].body)["metadata"].contains("ownerReferences"));
  for (int i : {1, 2}) {
    json sent = json::parse(client.requests()[i].body);
    CHECK(sent["metadata"]["ownerReferences"] == json::parse(R"([{"apiVersion": "kubeflow.org/v1",
        "kind": "PyTorchJob", "name": "demo", "uid": "uid-demo-PyTorchJob", "controller": false,
        "blockOwnerDeletion": true}])"));
  }
}

TEST_CASE("create: the n-th create failing deletes everything created before it", "[create]") {
  struct Failure {
    std::string what;
    std::function<void()> raise;
    ExitCode code;
  };
  const std::vector<Failure> failures = {
      {"500", [] { ScriptedClient::fail(500, "InternalError", "etcd is down"); }, ExitCode::Error},
      {"422",
       [] { ScriptedClient::fail(422, "Invalid", "Deployment.apps \"x\" is invalid: spec: Required value"); },
       ExitCode::Error},
      {"reset", [] { throw TransportError("connection reset by peer"); }, ExitCode::Error},
      {"403", [] { ScriptedClient::fail(403, "Forbidden", "services is forbidden"); }, ExitCode::Auth},
  };
  for (const auto& f : failures) {
    for (int n : {1, 2}) {  // the 2nd (Deployment) or 3rd (Service) create fails
      INFO(f.what << " on create #" << n + 1);
      int posts = 0;
      ScriptedClient client([&](const kube::Request& r, int) -> kube::Response {
        if (r.method == "DELETE") return ScriptedClient::ok(json::object(), 200);
        if (posts++ == n) f.raise();
        return echo(r);
      });
      try {
        submit::create_all(client, pytorch(), "ns1", three_objects());
        FAIL("no error");
      } catch (const Error& e) {
        std::string msg = e.what();
        CHECK(e.code() == f.code);
        CHECK(msg.find(n == 1 ? "creating Deployment demo-tensorboard failed"
                              : "creating Service demo-tensorboard failed") != std::string::npos);
        CHECK(msg.find("deleted the " + std::to_string(n) + " object(s) created before it") !=
              std::string::npos);
      }
      auto calls = verbs_and_paths(client);
      std::vector<std::string> deletes(calls.begin() + n + 1, calls.end());
      std::vector<std::string> expected;
      if (n == 2) expected.push_back("DELETE /apis/apps/v1/namespaces/ns1/deployments/demo-tensorboard");
      expected.push_back("DELETE /apis/kubeflow.org/v1/namespaces/ns1/pytorchjobs/demo");
      CHECK(deletes == expected);
      // Deleting the job lets the garbage collector take its pods too.
      CHECK(json::parse(client.requests().back().body)["propagationPolicy"] == "Background");
    }
  }
}

TEST_CASE("create: a failed rollback is reported, not hidden", "[create]") {
  int posts = 0;
  ScriptedClient client([&](const kube::Request& r, int) -> kube::Response {
    if (r.method == "DELETE") throw TransportError("connection refused");
    if (posts++ == 1) ScriptedClient::fail(500, "InternalError", "boom");
    return echo(r);
  });
  CHECK_THROWS_WITH(submit::create_all(client, pytorch(), "ns1", three_objects()),
                    Catch::Contains("could not delete PyTorchJob demo (connection refused)"));
}

TEST_CASE("create: 409 on the job says the name is taken and touches nothing", "[create]") {
  ScriptedClient client([](const kube::Request&, int) -> kube::Response {
    ScriptedClient::fail(409, "AlreadyExists", "pytorchjobs.kubeflow.org \"demo\" already exists");
  });
  try {
    submit::create_all(client, pytorch(), "ns1", three_objects());
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()) == "job demo already exists in namespace ns1");
    CHECK(e.code() == ExitCode::Error);
  }
  CHECK(client.requests().size() == 1);
}

TEST_CASE("create: 404 on the job's collection means the operator is not installed", "[create]") {
  struct Case {
    const submit::SubmitKind& submit_kind;
    std::string kind;
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {submit::kinds::pytorchjob(),
       "pytorch",
       {"--name=a", "--image=x", "cmd"},
       "PyTorchJob (kubeflow.org/v1) is not installed on this cluster: install the training-operator, or use "
       "--operator none"},
      {submit::kinds::mpijob(),
       "mpi",
       {"--name=a", "--image=x", "cmd"},
       "MPIJob (kubeflow.org/v2beta1) is not installed on this cluster: install the mpi-operator (v2beta1)"},
      {submit::kinds::volcanojob(),
       "volcano",
       {"--name=a", "--image=x", "cmd"},
       "Job (batch.volcano.sh/v1alpha1) is not installed on this cluster: install Volcano"},
  };
  for (const auto& c : cases) {
    ScriptedClient client([](const kube::Request&, int) -> kube::Response {
      ScriptedClient::fail(404, "NotFound", "the server could not find the requested resource");
    });
    auto objs = render_submit(parse_submit(c.kind, c.args), "ns1");
    CHECK_THROWS_WITH(submit::create_all(client, c.submit_kind, "ns1", objs), c.message);
    CHECK(client.requests().size() == 1);
  }
}

TEST_CASE("create: a missing namespace is a not-found error, not a missing operator", "[create]") {
  ScriptedClient client([](const kube::Request&, int) -> kube::Response {
    ScriptedClient::fail(404, "NotFound", "namespaces \"ns1\" not found");
  });
  try {
    submit::create_all(client, pytorch(), "ns1", three_objects());
    FAIL("no error");
  } catch (const NotFoundError& e) {
    CHECK(std::string(e.what()) == "namespace ns1 not found");
    CHECK(e.code() == ExitCode::NotFound);
  }
}

TEST_CASE("create: other errors on the job keep the server's message and exit code", "[create]") {
  ScriptedClient client([](const kube::Request&, int) -> kube::Response {
    ScriptedClient::fail(403, "Forbidden",
                         "pytorchjobs.kubeflow.org is forbidden: User \"bob\" cannot create");
  });
  try {
    submit::create_all(client, pytorch(), "ns1", three_objects());
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find(
              "creating PyTorchJob demo failed: pytorchjobs.kubeflow.org is forbidden") == 0);
    CHECK(e.code() == ExitCode::Auth);
  }
  CHECK(client.requests().size() == 1);
}

TEST_CASE("create: a refused connection says nothing of a job that may exist", "[create]") {
  ScriptedClient client([](const kube::Request&, int) -> kube::Response {
    throw TransportError("cannot connect to https://10.0.0.1:6443: connection refused", ExitCode::Error,
                         false);
  });
  CHECK(create_error(client) ==
        "creating PyTorchJob demo failed: cannot connect to https://10.0.0.1:6443: connection refused");
  CHECK(client.requests().size() == 1);  // no GET looking for a job that cannot exist
}

TEST_CASE("create: a connection lost after the request may have made the job: it is looked for", "[create]") {
  ScriptedClient client([](const kube::Request& r, int) -> kube::Response {
    if (r.method == "POST") throw TransportError("the connection to https://10.0.0.1:6443 was closed");
    throw TransportError("cannot connect to https://10.0.0.1:6443: connection refused", ExitCode::Error,
                         false);
  });
  CHECK(create_error(client).find("the job may have been created: check with trainctl get demo") !=
        std::string::npos);
  CHECK(client.requests().size() == 2);
}

TEST_CASE("create: an answer that is not the created job is an error, and the job is looked for",
          "[create]") {
  ScriptedClient client([](const kube::Request& r, int) -> kube::Response {
    if (r.method == "POST") return ScriptedClient::ok(json::array({1, 2, 3}));
    ScriptedClient::fail(404, "NotFound", "pytorchjobs.kubeflow.org \"demo\" not found");
  });
  CHECK(create_error(client) ==
        "creating PyTorchJob demo failed: the server answered POST "
        "/apis/kubeflow.org/v1/namespaces/ns1/pytorchjobs?fieldValidation=Strict with a JSON array where a "
        "PyTorchJob named demo was expected");
}

TEST_CASE("the job manifests are created in their kinds' collections", "[create]") {
  for (const auto& [api_version, kind, submit_kind] :
       {std::tuple{"batch.volcano.sh/v1alpha1", "Job", &submit::kinds::volcanojob()},
        std::tuple{"kubeflow.org/v2beta1", "MPIJob", &submit::kinds::mpijob()},
        std::tuple{"kubeflow.org/v1", "PyTorchJob", &submit::kinds::pytorchjob()},
        std::tuple{"batch/v1", "Job", &submit::kinds::pytorch_none()}}) {
    CAPTURE(api_version, kind);
    CHECK(kube::resource_of({{"apiVersion", api_version}, {"kind", kind}}).collection_path("a") ==
          submit_kind->job.resource.collection_path("a"));
  }
}
