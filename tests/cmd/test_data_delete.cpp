#include <catch2/catch.hpp>

#include "cmd_harness.h"
#include "core/errors.h"
#include "get_stubs.h"

using namespace get_stubs;

namespace {
json pvc(const std::string& name, const std::string& ns, const std::string& phase,
         const json& annotations = json::object()) {
  return {{"metadata",
           {{"name", name},
            {"namespace", ns},
            {"creationTimestamp", "2024-05-01T09:25:00Z"},
            {"annotations", annotations}}},
          {"spec", {{"accessModes", json::array({"ReadWriteMany"})}, {"volumeName", "pv-" + name}}},
          {"status", {{"phase", phase}, {"capacity", {{"storage", "10Gi"}}}}}};
}

// The lists delete reads to find what trainctl created beside job NAME of TYPE.
std::vector<std::string> dependent_lists(const std::string& type, const std::string& name) {
  const std::string selector =
      "?labelSelector=app%3D" + type + "%2Crelease%3D" + name + "%2Capp.kubernetes.io%2Fmanaged-by%3Dtrainctl";
  return {"/api/v1/namespaces/default/services" + selector, "/apis/apps/v1/namespaces/default/deployments" + selector,
          "/api/v1/namespaces/default/configmaps" + selector};
}

void no_dependents(trainctl::testing::FakeClient& c, const std::string& type, const std::string& name) {
  for (const auto& path : dependent_lists(type, name)) c.on_get(path, trainctl::testing::FakeClient::list(json::array()));
}

json labelled(const std::string& kind, const std::string& name, const json& owners) {
  json meta = {{"name", name}, {"namespace", "default"}, {"labels", {{"release", "a"}, {"app", "pytorchjob"}}}};
  if (!owners.is_null()) meta["ownerReferences"] = owners;
  return {{"kind", kind}, {"metadata", meta}};
}
}  // namespace

TEST_CASE("data list prints bound PVCs as in the walk-through (seed 000)") {
  Harness h;
  h.client->on_get("/api/v1/namespaces/default/persistentvolumeclaims?limit=100",
                   FakeClient::list(json::array(
                       {pvc("training-data", "default", "Bound"), pvc("new-claim", "default", "Pending")})));
  h.run({"data", "list"});
  CHECK(h.out() ==
        "NAME           ACCESSMODE     DESCRIPTION  OWNER  AGE\n"
        "training-data  ReadWriteMany                      35m\n");
  CHECK_NOTHROW(h.client->verify());
}

TEST_CASE("data list -A puts NAMESPACE second and reads description/owner annotations") {
  Harness h;
  json deleting = pvc("old", "team-b", "Bound");
  deleting["metadata"]["deletionTimestamp"] = "2024-05-01T09:59:00Z";
  h.client->on_get("/api/v1/persistentvolumeclaims?limit=100",
                   FakeClient::list(json::array({pvc("imagenet", "team-a", "Bound",
                                                     {{"description", "ImageNet 2012"}, {"owner", "alice"}}),
                                                 deleting})));
  h.run({"data", "list", "--allNamespaces"});
  CHECK(h.out() ==
        "NAME      NAMESPACE  ACCESSMODE     DESCRIPTION    OWNER  AGE\n"
        "imagenet  team-a     ReadWriteMany  ImageNet 2012  alice  35m\n");

  Harness j;
  j.client->on_get("/api/v1/namespaces/default/persistentvolumeclaims?limit=100",
                   FakeClient::list(json::array({pvc("training-data", "default", "Bound")})));
  j.run({"data", "list", "-o", "json"});
  auto arr = json::parse(j.out());
  REQUIRE(arr.size() == 1);
  CHECK(arr[0]["accessModes"][0] == "ReadWriteMany");
  CHECK(arr[0]["capacity"] == "10Gi");
}

TEST_CASE("delete removes found jobs in the foreground, reports missing ones, and exits NotFound") {
  Harness h;
  auto& c = *h.client;
  c.on_get(job_path(0, "a"), fixtures::pytorchjob("a", "2024-05-01T09:00:00Z", 1, 1));
  for (int k = 1; k < get_stubs::kKinds; ++k) c.on_not_found(job_path(k, "a"));
  for (int k = 0; k < get_stubs::kKinds; ++k) c.on_not_found(job_path(k, "b"));
  no_dependents(c, "pytorchjob", "a");
  c.on("DELETE", "/apis/kubeflow.org/v1/namespaces/default/pytorchjobs/a", 200, json{{"kind", "PyTorchJob"}});
  c.on("DELETE", "/api/v1/namespaces/default/configmaps/a-pytorchjob", 404,
       json{{"kind", "Status"},
            {"reason", "NotFound"},
            {"code", 404},
            {"message", "configmaps \"a-pytorchjob\" not found"}});
  try {
    h.run({"delete", "a", "b"});
    FAIL("no error");
  } catch (const trainctl::NotFoundError& e) {
    CHECK(e.code() == trainctl::ExitCode::NotFound);
  }
  CHECK(h.out() == "The training job a has been deleted successfully\n");
  CHECK(h.err() == "error: job b not found in namespace default\n");
  REQUIRE(c.batches().size() == 2);
  CHECK(c.batches()[0] == 12);
  CHECK(c.batches()[1] == 3);  // the dependents' lists, together
  bool saw = false;
  for (const auto& r : c.requests()) {
    if (r.method != "DELETE" || r.path.find("pytorchjobs/a") == std::string::npos) continue;
    saw = true;
    CHECK(json::parse(r.body)["propagationPolicy"] == "Foreground");
  }
  CHECK(saw);
  CHECK_NOTHROW(c.verify());
}

TEST_CASE("delete returns at once and says the job is being deleted while it terminates") {
  Harness h;
  auto& c = *h.client;
  c.on_get(job_path(0, "a"), fixtures::pytorchjob("a", "2024-05-01T09:00:00Z", 1, 1));
  for (int k = 1; k < get_stubs::kKinds; ++k) c.on_not_found(job_path(k, "a"));
  // kube-apiserver's answer to a delete in the foreground: the object, now with
  // deletionTimestamp and the foregroundDeletion finalizer (registry/generic/registry/store.go).
  json terminating = fixtures::pytorchjob("a", "2024-05-01T09:00:00Z", 1, 1);
  terminating["metadata"]["deletionTimestamp"] = "2024-05-01T10:00:00Z";
  terminating["metadata"]["deletionGracePeriodSeconds"] = 0;
  terminating["metadata"]["finalizers"] = json::array({"foregroundDeletion"});
  no_dependents(c, "pytorchjob", "a");
  c.on("DELETE", "/apis/kubeflow.org/v1/namespaces/default/pytorchjobs/a", 200, terminating);
  c.on("DELETE", "/api/v1/namespaces/default/configmaps/a-pytorchjob", 404,
       json{{"kind", "Status"}, {"reason", "NotFound"}, {"code", 404}, {"message", "not found"}});
  h.run({"delete", "a"});
  CHECK(h.out() == "The training job a is being deleted: TERMINATING until its pods have stopped\n");
  // Nothing waits for the job to go: the deletes are the last requests.
  CHECK(c.requests().back().method == "DELETE");
  CHECK_NOTHROW(c.verify());
}

TEST_CASE("delete -T picks the kind; an ambiguous name is refused without -T") {
  Harness h;
  auto& c = *h.client;
  c.on_get(job_path(1, "m"), fixtures::mpijob("m", "2024-05-01T09:00:00Z", 1, 1));
  no_dependents(c, "mpijob", "m");
  c.on("DELETE", "/apis/kubeflow.org/v2beta1/namespaces/default/mpijobs/m", 200, json::object());
  c.on("DELETE", "/api/v1/namespaces/default/configmaps/m-mpijob", 200, json::object());
  h.run({"del", "m", "-T", "mj"});
  CHECK(h.out() == "The training job m has been deleted successfully\n");
  CHECK_NOTHROW(c.verify());

  Harness a;
  auto& ca = *a.client;
  ca.on_get(job_path(0, "x"), fixtures::pytorchjob("x", "2024-05-01T09:00:00Z", 1, 1));
  ca.on_get(job_path(1, "x"), fixtures::mpijob("x", "2024-05-01T09:00:00Z", 1, 1));
  ca.on_not_found(job_path(2, "x"));
  ca.on_not_found(job_path(3, "x"));
  ca.on_not_found(job_path(4, "x"));
  ca.on_not_found(job_path(5, "x"));
  try {
    a.run({"delete", "x"});
    FAIL("no error");
  } catch (const trainctl::UsageError& e) {
    CHECK(std::string(e.what()) ==
          "there is more than one training job named x (pytorchjob, mpijob): choose one with -T/--type");
  }
  CHECK(a.err().empty());  // one name: its error is the only line (main prints it)
  for (const auto& r : ca.requests()) CHECK(r.method == "GET");
}

TEST_CASE("delete of one missing job fails with that job's error alone") {
  Harness h;
  auto& c = *h.client;
  for (int k = 0; k < get_stubs::kKinds; ++k) c.on_not_found(job_path(k, "b"));
  try {
    h.run({"delete", "b"});
    FAIL("no error");
  } catch (const trainctl::NotFoundError& e) {
    CHECK(std::string(e.what()) == "job b not found in namespace default");
    CHECK(e.code() == trainctl::ExitCode::NotFound);
  }
  CHECK(h.err().empty());
  CHECK(h.out().empty());
  CHECK_NOTHROW(c.verify());
}

// The training-operator releases a Service it controls whose labels do not match the job's
// (control/controller_ref_manager.go): a TensorBoard Service made by an older trainctl lost its
// ownerReference, and garbage collection alone would leave it behind.
TEST_CASE("delete removes trainctl's dependents itself, released ones too, never another job's") {
  Harness h;
  auto& c = *h.client;
  c.on_get(job_path(0, "a"), fixtures::pytorchjob("a", "2024-05-01T09:00:00Z", 1, 1));
  for (int k = 1; k < get_stubs::kKinds; ++k) c.on_not_found(job_path(k, "a"));
  const auto lists = dependent_lists("pytorchjob", "a");
  const json mine = json::array({{{"apiVersion", "kubeflow.org/v1"}, {"kind", "PyTorchJob"}, {"name", "a"},
                                  {"uid", "uid-a"}, {"controller", false}}});
  const json other = json::array({{{"kind", "PyTorchJob"}, {"name", "a"}, {"uid", "uid-of-an-older-a"}}});
  c.on_get(lists[0], trainctl::testing::FakeClient::list(json::array({labelled("Service", "a-tensorboard", nullptr)})));
  c.on_get(lists[1], trainctl::testing::FakeClient::list(json::array({labelled("Deployment", "a-tensorboard", mine)})));
  c.on_get(lists[2], trainctl::testing::FakeClient::list(json::array({labelled("ConfigMap", "a-0123", other)})));
  c.on("DELETE", "/apis/kubeflow.org/v1/namespaces/default/pytorchjobs/a", 200, json::object());
  c.on("DELETE", "/api/v1/namespaces/default/services/a-tensorboard", 200, json::object());
  c.on("DELETE", "/apis/apps/v1/namespaces/default/deployments/a-tensorboard", 404,
       json{{"kind", "Status"}, {"reason", "NotFound"}, {"code", 404}, {"message", "gone already"}});
  c.on("DELETE", "/api/v1/namespaces/default/configmaps/a-pytorchjob", 200, json::object());
  h.run({"delete", "a"});
  CHECK(h.out() == "The training job a has been deleted successfully\n");
  for (const auto& r : c.requests()) {
    if (r.method != "DELETE") continue;
    CHECK(r.path.find("configmaps/a-0123") == std::string::npos);  // owned by another job
    if (r.path.find("tensorboard") != std::string::npos)
      CHECK(json::parse(r.body)["propagationPolicy"] == "Background");
  }
  CHECK_NOTHROW(c.verify());
}
