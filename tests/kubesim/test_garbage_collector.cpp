// The garbage collector: dependents go after their owner (never inside its DELETE), every
// ownerReference counts, Foreground waits for blocking dependents (pods for their grace
// period), Orphan drops the references. Behaviour of k8s.io/kubernetes
// pkg/controller/garbagecollector (attemptToDeleteItem, processDeletingDependentsItem,
// attemptToOrphanWorker).
#include "kubesim/controllers/context.h"
#include "test_controllers_fixture.h"

using namespace kubesim;
using namespace kubesim::testing;

namespace {

json gc_configmap(const std::string& name, const std::vector<json>& owners = {}) {
  json c = {
      {"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", name}, {"namespace", "default"}}}};
  if (!owners.empty()) c["metadata"]["ownerReferences"] = owners;
  return c;
}

json ref(const json& owner, bool controller, bool block) {
  return {{"apiVersion", owner["apiVersion"]}, {"kind", owner["kind"]},
          {"name", owner["metadata"]["name"]}, {"uid", owner["metadata"]["uid"]},
          {"controller", controller},          {"blockOwnerDeletion", block}};
}

DeleteOptions policy(const std::string& p) {
  DeleteOptions o;
  o.propagation = p;
  return o;
}

json gc_pytorch_job(const std::string& name) {
  json tmpl = {{"spec", {{"containers", json::array({gpu_container("pytorch", "python train.py", 1)})}}}};
  return {
      {"apiVersion", "kubeflow.org/v1"},
      {"kind", "PyTorchJob"},
      {"metadata",
       {{"name", name}, {"namespace", "default"}, {"annotations", {{kOutcomeAnnotation, "run-forever"}}}}},
      {"spec",
       {{"pytorchReplicaSpecs",
         {{"Master", {{"replicas", 1}, {"template", tmpl}}},
          {"Worker", {{"replicas", 1}, {"template", tmpl}}}}}}}};
}

}  // namespace

TEST_CASE("garbage collector: Background deletes dependents after the owner, through every reference",
          "[controllers][gc]") {
  SimFixture f(false);
  const auto& cm = f.type("", "v1", "configmaps");
  json a = f.store.create(cm, gc_configmap("a"));
  json b = f.store.create(cm, gc_configmap("b"));
  json child = f.store.create(cm, gc_configmap("child", {ref(a, true, true)}));
  f.store.create(cm, gc_configmap("not-controller", {ref(a, false, false)}));
  f.store.create(cm, gc_configmap("grandchild", {ref(child, true, true)}));
  f.store.create(cm, gc_configmap("shared", {ref(a, false, false), ref(b, false, false)}));
  f.step(0ms);

  CHECK(f.store.remove(cm, "default", "a", policy("Background")).removed);
  // Not inside the DELETE: the collector runs after it.
  CHECK(f.find("", "v1", "configmaps", "child"));
  f.step(0ms);
  CHECK_FALSE(f.find("", "v1", "configmaps", "child"));
  CHECK_FALSE(f.find("", "v1", "configmaps", "not-controller"));
  CHECK_FALSE(f.find("", "v1", "configmaps", "grandchild"));
  // Another owner still exists: only the reference to the one gone is removed.
  json shared = f.get("", "v1", "configmaps", "shared");
  REQUIRE(shared["metadata"]["ownerReferences"].size() == 1);
  CHECK(shared["metadata"]["ownerReferences"][0]["name"] == "b");
  f.store.remove(cm, "default", "b", policy("Background"));
  f.step(0ms);
  CHECK_FALSE(f.find("", "v1", "configmaps", "shared"));
}

TEST_CASE("garbage collector: a dependent created after its owner is gone is collected",
          "[controllers][gc]") {
  SimFixture f(false);
  const auto& cm = f.type("", "v1", "configmaps");
  json owner = f.store.create(cm, gc_configmap("owner"));
  f.store.remove(cm, "default", "owner", policy("Background"));
  f.step(0ms);
  // A controller that read the owner just before the delete creates a dependent now.
  f.store.create(cm, gc_configmap("late", {ref(owner, true, true)}));
  f.store.create(cm, gc_configmap("unowned"));
  f.step(0ms);
  CHECK_FALSE(f.find("", "v1", "configmaps", "late"));
  CHECK(f.find("", "v1", "configmaps", "unowned"));
}

TEST_CASE("garbage collector: Orphan removes the references, then the owner", "[controllers][gc]") {
  SimFixture f(false);
  const auto& cm = f.type("", "v1", "configmaps");
  json owner = f.store.create(cm, gc_configmap("owner"));
  f.store.create(cm, gc_configmap("kept", {ref(owner, true, true)}));
  f.step(0ms);
  auto r = f.store.remove(cm, "default", "owner", policy("Orphan"));
  CHECK_FALSE(r.removed);
  CHECK(f.find("", "v1", "configmaps", "owner"));
  f.step(0ms);
  CHECK_FALSE(f.find("", "v1", "configmaps", "owner"));
  json kept = f.get("", "v1", "configmaps", "kept");
  CHECK_FALSE(kept["metadata"].contains("ownerReferences"));
}

TEST_CASE("garbage collector: Foreground keeps the owner until blocking dependents are gone",
          "[controllers][gc]") {
  SimFixture f;
  json job = f.create("kubeflow.org", "v1", "pytorchjobs", gc_pytorch_job("fg"));
  const auto& cm = f.type("", "v1", "configmaps");
  f.store.create(cm, gc_configmap("fg-loose", {ref(job, false, false)}));
  f.step(10s);
  REQUIRE(phase(f.pod("fg-master-0")) == "Running");
  REQUIRE(phase(f.pod("fg-worker-0")) == "Running");

  auto r = f.store.remove(f.pytorchjobs(), "default", "fg", policy("Foreground"));
  CHECK_FALSE(r.removed);
  CHECK(r.object["metadata"]["finalizers"] == json::array({"foregroundDeletion"}));
  f.step(0ms);
  // Its pods are being deleted (Terminating for their 30s grace period), the services and the
  // non-blocking ConfigMap are gone, and the job waits for its pods.
  const json master = f.pod("fg-master-0");
  CHECK(master["metadata"].contains("deletionTimestamp"));
  CHECK(master["metadata"]["deletionGracePeriodSeconds"] == 30);
  CHECK_FALSE(f.find("", "v1", "services", "fg-master-0"));
  CHECK_FALSE(f.find("", "v1", "configmaps", "fg-loose"));
  CHECK(f.find("kubeflow.org", "v1", "pytorchjobs", "fg"));
  f.step(29s);
  CHECK(f.find("", "v1", "pods", "fg-master-0"));
  CHECK(f.find("kubeflow.org", "v1", "pytorchjobs", "fg"));
  f.step(2s);
  // The kubelet deleted the pods, the operator did not create them again, the job went last.
  CHECK_FALSE(f.find("", "v1", "pods", "fg-master-0"));
  CHECK_FALSE(f.find("", "v1", "pods", "fg-worker-0"));
  CHECK_FALSE(f.find("kubeflow.org", "v1", "pytorchjobs", "fg"));
  f.step(60s);
  CHECK(f.list("", "v1", "pods").empty());
}

TEST_CASE("garbage collector: Background deletion of a job leaves its pods terminating",
          "[controllers][gc]") {
  SimFixture f;
  f.create("kubeflow.org", "v1", "pytorchjobs", gc_pytorch_job("bg"));
  f.step(10s);
  CHECK(f.store.remove(f.pytorchjobs(), "default", "bg", policy("Background")).removed);
  f.step(0ms);
  CHECK(f.pod("bg-master-0")["metadata"].contains("deletionTimestamp"));
  f.step(31s);
  CHECK_FALSE(f.find("", "v1", "pods", "bg-master-0"));
  CHECK_FALSE(f.find("", "v1", "pods", "bg-worker-0"));
}
