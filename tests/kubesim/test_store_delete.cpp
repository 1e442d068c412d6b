// Deletion in the store as kube-apiserver's registry does it: graceful pod deletion,
// finalizers, propagation policies as finalizers, and no cascade inside the DELETE (that is
// the garbage collector's, test_garbage_collector.cpp). Expected values follow
// k8s.io/apiserver registry/generic/registry/store.go and registry/rest/delete.go (v0.33.0).
#include <catch2/catch.hpp>

#include "kubesim/store.h"

using kubesim::DeleteOptions;
using kubesim::json;
using kubesim::StatusError;
using kubesim::Store;

namespace {

using Clock = std::chrono::system_clock;
const Clock::time_point kDeleteNow =
    Clock::time_point(std::chrono::seconds(1'700'000'000));  // 2023-11-14T22:13:20Z

json plain_configmap(const std::string& name) {
  return {
      {"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", name}, {"namespace", "default"}}}};
}

json pod(const std::string& name, const std::string& node, const std::string& phase) {
  json p = {{"apiVersion", "v1"},
            {"kind", "Pod"},
            {"metadata", {{"name", name}, {"namespace", "default"}}},
            {"spec", {{"containers", {{{"name", "c"}, {"image", "busybox"}}}}}}};
  if (!node.empty()) p["spec"]["nodeName"] = node;
  if (!phase.empty()) p["status"]["phase"] = phase;
  return p;
}

struct Recorder {
  Store& store;
  uint64_t handle;
  std::vector<std::string> seen;
  explicit Recorder(Store& s) : store(s) {
    handle = s.watch(nullptr, [this](const kubesim::WatchEvent& ev) {
      seen.push_back(std::string(kubesim::event_type_name(ev.type)) + ":" +
                     (*ev.object)["metadata"].value("name", ""));
      return true;
    });
  }
  ~Recorder() { store.unwatch(handle); }
};

DeleteOptions policy(const std::string& p) {
  DeleteOptions o;
  o.propagation = p;
  return o;
}

}  // namespace

TEST_CASE("store delete: an object without finalizers goes at once, its dependents stay",
          "[kubesim][delete]") {
  Store s;
  const auto* cm = s.find("", "v1", "configmaps");
  json owner = s.create(*cm, plain_configmap("owner"));
  json child = plain_configmap("child");
  child["metadata"]["ownerReferences"] = {
      {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"name", "owner"}, {"uid", owner["metadata"]["uid"]}}};
  s.create(*cm, child);
  Recorder rec(s);
  auto r = s.remove(*cm, "default", "owner", policy("Background"));
  CHECK(r.removed);
  CHECK_FALSE(s.get(*cm, "default", "owner"));
  CHECK(s.get(*cm, "default", "child"));  // the garbage collector's job, later
  CHECK(rec.seen == std::vector<std::string>{"DELETED:owner"});
}

TEST_CASE("store delete: Foreground and Orphan become finalizers and the object stays", "[kubesim][delete]") {
  Store s;
  s.set_clock([] { return kDeleteNow; });
  const auto* cm = s.find("", "v1", "configmaps");
  for (const std::string p : {"Foreground", "Orphan"}) {
    s.create(*cm, plain_configmap("x"));
    Recorder rec(s);
    auto r = s.remove(*cm, "default", "x", policy(p));
    CHECK_FALSE(r.removed);
    const json& md = r.object["metadata"];
    CHECK(md["finalizers"] == json::array({p == "Foreground" ? "foregroundDeletion" : "orphan"}));
    CHECK(md["deletionTimestamp"] == "2023-11-14T22:13:20Z");
    CHECK(md["deletionGracePeriodSeconds"] == 0);
    CHECK(rec.seen == std::vector<std::string>{"MODIFIED:x"});
    // A second delete changes nothing; removing the finalizer removes the object.
    s.remove(*cm, "default", "x", policy(p));
    CHECK(rec.seen.size() == 1);
    auto after = s.mutate(*cm, "default", "x", [](json& o) {
      o["metadata"].erase("finalizers");
      return true;
    });
    REQUIRE(after);
    CHECK_FALSE(s.get(*cm, "default", "x"));
    CHECK(rec.seen == std::vector<std::string>{"MODIFIED:x", "DELETED:x"});
  }
}

TEST_CASE("store delete: an object with a finalizer of its own waits for it", "[kubesim][delete]") {
  Store s;
  s.set_clock([] { return kDeleteNow; });
  const auto* cm = s.find("", "v1", "configmaps");
  json held = plain_configmap("held");
  held["metadata"]["finalizers"] = {"example.com/keep"};
  s.create(*cm, held);
  auto r = s.remove(*cm, "default", "held", policy("Background"));
  CHECK_FALSE(r.removed);
  CHECK(r.object["metadata"]["finalizers"] == json::array({"example.com/keep"}));
  CHECK(r.object["metadata"]["deletionTimestamp"] == "2023-11-14T22:13:20Z");
  // A client cannot take the deletion back by updating deletionTimestamp away.
  json u = r.object;
  u["metadata"].erase("deletionTimestamp");
  u["data"] = {{"k", "v"}};
  CHECK(s.update(*cm, u)["metadata"]["deletionTimestamp"] == "2023-11-14T22:13:20Z");
  u = *s.get(*cm, "default", "held");
  u["metadata"]["finalizers"] = json::array();
  s.update(*cm, u);
  CHECK_FALSE(s.get(*cm, "default", "held"));
}

TEST_CASE("store delete: batch/v1 Jobs orphan their pods by default", "[kubesim][delete]") {
  Store s;
  const auto* jobs = s.find("batch", "v1", "jobs");
  s.create(*jobs, {{"metadata", {{"name", "j"}}}, {"spec", json::object()}});
  auto r = s.remove(*jobs, "default", "j");
  CHECK_FALSE(r.removed);
  CHECK(r.object["metadata"]["finalizers"] == json::array({"orphan"}));
  s.create(*jobs, {{"metadata", {{"name", "k"}}}, {"spec", json::object()}});
  CHECK(s.remove(*jobs, "default", "k", policy("Background")).removed);
}

TEST_CASE("store delete: a running pod is deleted gracefully", "[kubesim][delete]") {
  Store s;
  s.set_clock([] { return kDeleteNow; });
  const auto* pods = s.find("", "v1", "pods");
  json created = s.create(*pods, pod("p", "node-1", "Running"));
  CHECK(created["spec"]["terminationGracePeriodSeconds"] == 30);  // defaulted on create
  Recorder rec(s);
  auto r = s.remove(*pods, "default", "p");
  CHECK_FALSE(r.removed);
  CHECK(r.object["metadata"]["deletionTimestamp"] == "2023-11-14T22:13:50Z");  // now + 30s
  CHECK(r.object["metadata"]["deletionGracePeriodSeconds"] == 30);
  CHECK_FALSE(r.object["metadata"].contains("finalizers"));
  // Deleting again while it terminates changes nothing; a longer grace is ignored.
  DeleteOptions longer;
  longer.grace_period_seconds = 60;
  CHECK_FALSE(s.remove(*pods, "default", "p", longer).removed);
  CHECK(rec.seen == std::vector<std::string>{"MODIFIED:p"});
  // A shorter one moves the deadline; 0 (what the kubelet sends) removes it.
  DeleteOptions shorter;
  shorter.grace_period_seconds = 10;
  CHECK(s.remove(*pods, "default", "p", shorter).object["metadata"]["deletionTimestamp"] ==
        "2023-11-14T22:13:30Z");
  DeleteOptions now;
  now.grace_period_seconds = 0;
  now.precondition_uid = created["metadata"]["uid"];
  auto gone = s.remove(*pods, "default", "p", now);
  CHECK(gone.removed);
  CHECK(rec.seen == std::vector<std::string>{"MODIFIED:p", "MODIFIED:p", "MODIFIED:p", "DELETED:p"});
}

TEST_CASE("store delete: pods not scheduled or already ended go at once", "[kubesim][delete]") {
  Store s;
  s.set_clock([] { return kDeleteNow; });
  const auto* pods = s.find("", "v1", "pods");
  json custom = pod("quick", "node-1", "Running");
  custom["spec"]["terminationGracePeriodSeconds"] = 5;
  CHECK(s.create(*pods, custom)["spec"]["terminationGracePeriodSeconds"] == 5);
  CHECK(s.remove(*pods, "default", "quick").object["metadata"]["deletionTimestamp"] ==
        "2023-11-14T22:13:25Z");
  for (const auto& [name, node, phase] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"pending", "", "Pending"}, {"done", "node-1", "Succeeded"}, {"failed", "node-1", "Failed"}}) {
    s.create(*pods, pod(name, node, phase));
    Recorder rec(s);
    auto r = s.remove(*pods, "default", name);
    CHECK(r.removed);
    CHECK(r.object["metadata"]["deletionGracePeriodSeconds"] == 0);
    // The registry first writes deletionTimestamp, then deletes: MODIFIED, then DELETED.
    CHECK(rec.seen == std::vector<std::string>{"MODIFIED:" + name, "DELETED:" + name});
  }
}

TEST_CASE("store delete: a pod without status is deleted without one", "[kubesim][delete]") {
  // An operator's pod that no kubelet has seen yet: the DELETE reads its spec and status to
  // choose the grace period and must not add a null status that watchers then read.
  Store s;
  s.set_clock([] { return kDeleteNow; });
  const auto* pods = s.find("", "v1", "pods");
  s.create(*pods, pod("fresh", "", ""));
  std::vector<json> objects;
  uint64_t h = s.watch(nullptr, [&](const kubesim::WatchEvent& ev) {
    objects.push_back(*ev.object);
    return true;
  });
  CHECK(s.remove(*pods, "default", "fresh").removed);
  s.unwatch(h);
  REQUIRE(objects.size() == 2);
  for (const json& o : objects) {
    CHECK_FALSE((o.contains("status") && o["status"].is_null()));
    CHECK(o["spec"].is_object());
  }
}

TEST_CASE("store delete: preconditions", "[kubesim][delete]") {
  Store s;
  const auto* cm = s.find("", "v1", "configmaps");
  s.create(*cm, plain_configmap("x"));
  DeleteOptions o;
  o.precondition_uid = "not-the-uid";
  try {
    s.remove(*cm, "default", "x", o);
    FAIL("no conflict");
  } catch (const StatusError& e) {
    CHECK(e.code == 409);
    CHECK(e.message.find("Precondition failed: UID in precondition: not-the-uid") != std::string::npos);
  }
  CHECK(s.get(*cm, "default", "x"));
}
