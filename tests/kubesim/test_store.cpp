#include "kubesim/logs.h"
#include "kubesim/store.h"

#include <catch2/catch.hpp>

#include <thread>

using kubesim::json;
using kubesim::StatusError;
using kubesim::Store;

namespace {

json configmap(const std::string& name, const std::string& ns = "default") {
  return {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", name}, {"namespace", ns}}}};
}

template <typename F>
StatusError status_of(F&& f) {
  try {
    f();
  } catch (const StatusError& e) {
    return e;
  }
  FAIL("no StatusError thrown");
  return StatusError(0, "", "");
}

}  // namespace

TEST_CASE("store create assigns metadata like kube-apiserver", "[kubesim][store]") {
  Store s;
  const auto* cm = s.find("", "v1", "configmaps");
  REQUIRE(cm);
  json o = s.create(*cm, configmap("a"));
  CHECK(o["metadata"]["uid"].get<std::string>().size() == 36);
  CHECK(!o["metadata"]["resourceVersion"].get<std::string>().empty());
  CHECK(o["metadata"]["creationTimestamp"].get<std::string>().back() == 'Z');
  CHECK_FALSE(o["metadata"].contains("generation"));  // core ConfigMaps carry no generation

  json g = configmap("");
  g["metadata"].erase("name");
  g["metadata"]["generateName"] = "job-";
  json created = s.create(*cm, g);
  std::string name = created["metadata"]["name"];
  CHECK(name.rfind("job-", 0) == 0);
  CHECK(name.size() == 9);

  auto dup = status_of([&] { s.create(*cm, configmap("a")); });
  CHECK(dup.code == 409);
  CHECK(dup.reason == "AlreadyExists");
  CHECK(dup.message == "configmaps \"a\" already exists");

  auto missing = status_of([&] { s.create(*cm, configmap("b", "nope")); });
  CHECK(missing.code == 404);
  CHECK(missing.message == "namespaces \"nope\" not found");
}

TEST_CASE("store qualifies custom resources in messages and bumps generation on spec changes",
          "[kubesim][store]") {
  Store s;
  kubesim::ResourceType rt{"kubeflow.org", "v1", "PyTorchJob", "pytorchjobs", "pytorchjob", true, {}, {}, true};
  s.register_type(rt);
  const auto* pt = s.find("kubeflow.org", "v1", "pytorchjobs");
  json job = {{"metadata", {{"name", "demo"}}}, {"spec", {{"x", 1}}}};
  json c = s.create(*pt, job);
  CHECK(c["metadata"]["generation"] == 1);
  CHECK(c["apiVersion"] == "kubeflow.org/v1");
  auto e = status_of([&] { s.create(*pt, job); });
  CHECK(e.message == "pytorchjobs.kubeflow.org \"demo\" already exists");
  CHECK(e.details["group"] == "kubeflow.org");

  json u = c;
  u["status"] = {{"phase", "x"}};
  CHECK(s.update(*pt, u)["metadata"]["generation"] == 1);
  u = *s.get(*pt, "default", "demo");
  u["spec"]["x"] = 2;
  CHECK(s.update(*pt, u)["metadata"]["generation"] == 2);

  json stale = c;  // resourceVersion of the first version
  auto conflict = status_of([&] { s.update(*pt, stale); });
  CHECK(conflict.code == 409);
  CHECK(conflict.reason == "Conflict");
  CHECK(conflict.message ==
        "Operation cannot be fulfilled on pytorchjobs.kubeflow.org \"demo\": the object has been modified; "
        "please apply your changes to the latest version and try again");
}

TEST_CASE("store deleting a namespace deletes what it contains", "[kubesim][store]") {
  Store s;
  const auto* ns = s.find("", "v1", "namespaces");
  const auto* cm = s.find("", "v1", "configmaps");
  s.create(*ns, {{"metadata", {{"name", "team"}}}});
  s.create(*cm, configmap("x", "team"));
  s.remove(*ns, "", "team");
  CHECK_FALSE(s.get(*cm, "team", "x"));
  CHECK_FALSE(s.get(*ns, "", "team"));
}

TEST_CASE("store lists in pages with continue tokens and remainingItemCount", "[kubesim][store]") {
  Store s;
  const auto* cm = s.find("", "v1", "configmaps");
  for (const char* n : {"e", "a", "c", "b", "d"}) s.create(*cm, configmap(n));
  auto p1 = s.list(*cm, "default", nullptr, 2);
  REQUIRE(p1.items.size() == 2);
  CHECK((*p1.items[0])["metadata"]["name"] == "a");
  CHECK((*p1.items[1])["metadata"]["name"] == "b");
  CHECK(p1.remaining == 3);
  REQUIRE(!p1.continue_token.empty());
  CHECK(*p1.encoded[0] == p1.items[0]->dump());
  auto p2 = s.list(*cm, "default", nullptr, 2, p1.continue_token);
  CHECK((*p2.items[0])["metadata"]["name"] == "c");
  CHECK(p2.remaining == 1);
  auto p3 = s.list(*cm, "default", nullptr, 2, p2.continue_token);
  CHECK(p3.items.size() == 1);
  CHECK(p3.continue_token.empty());
  auto filtered = s.list(*cm, "", [](const json& o) { return o["metadata"]["name"] != "a"; });
  CHECK(filtered.items.size() == 4);
  CHECK_THROWS_AS(s.list(*cm, "default", nullptr, 2, "not-a-token"), StatusError);
}

TEST_CASE("store watch delivers events in order and events_since replays them", "[kubesim][store]") {
  Store s;
  const auto* cm = s.find("", "v1", "configmaps");
  uint64_t start = s.resource_version();
  std::vector<std::string> seen;
  auto h = s.watch(cm, [&](const kubesim::WatchEvent& ev) {
    seen.push_back(std::string(kubesim::event_type_name(ev.type)) + ":" + (*ev.object)["metadata"].value("name", ""));
    CHECK(*ev.encoded == ev.object->dump());
    return true;
  });
  s.create(*cm, configmap("w"));
  s.mutate(*cm, "default", "w", [](json& o) {
    o["data"] = {{"k", "v"}};
    return true;
  });
  s.remove(*cm, "default", "w");
  s.unwatch(h);
  s.create(*cm, configmap("after"));
  CHECK(seen == std::vector<std::string>{"ADDED:w", "MODIFIED:w", "DELETED:w"});
  auto replay = s.events_since(*cm, start);
  REQUIRE(replay.size() == 4);
  CHECK(replay[1].type == kubesim::EventType::Modified);
  CHECK(replay[2].resource_version < replay[3].resource_version);
}

TEST_CASE("log store follow returns when the container's log is closed", "[kubesim][logs]") {
  kubesim::LogStore logs;
  logs.append("default", "p", "c", "one\n");
  std::vector<std::string> got;
  std::thread follower([&] {
    logs.follow("default", "p", "c", 0, [&](const kubesim::LogLine& l) {
      got.push_back(l.text);
      return true;
    });
  });
  logs.append("default", "p", "c", "two");
  logs.close("default", "p", "c");
  follower.join();
  CHECK(got == std::vector<std::string>{"one", "two"});
  logs.reset("default", "p", "c");
  CHECK(logs.previous_lines("default", "p", "c").size() == 2);
  CHECK(logs.lines("default", "p", "c").empty());
}

TEST_CASE("log store follow delivers a long log in order, a batch at a time", "[kubesim][logs]") {
  kubesim::LogStore logs;
  const int n = 10000;  // more than two batches
  for (int i = 0; i < n; ++i) logs.append("default", "p", "c", std::to_string(i));
  logs.close("default", "p", "c");
  std::vector<std::string> got;
  const size_t next = logs.follow("default", "p", "c", 0, [&](const kubesim::LogLine& l) {
    got.push_back(l.text);
    return true;
  });
  CHECK(next == static_cast<size_t>(n));
  REQUIRE(got.size() == static_cast<size_t>(n));
  bool in_order = true;
  for (int i = 0; i < n; ++i) in_order = in_order && got[static_cast<size_t>(i)] == std::to_string(i);
  CHECK(in_order);
  got.clear();
  CHECK(logs.follow("default", "p", "c", 9998, [&](const kubesim::LogLine& l) {
    got.push_back(l.text);
    return got.size() < 1;  // stop after the first
  }) == 9998);
  CHECK(got == std::vector<std::string>{"9998"});
}

TEST_CASE("store events_since an rv older than the history window is 410 Expired", "[kubesim][store]") {
  Store s;
  s.set_history_limit(3);
  const auto* cm = s.find("", "v1", "configmaps");
  uint64_t start = s.resource_version();
  for (const char* n : {"a", "b", "c", "d", "e"}) s.create(*cm, configmap(n));
  auto e = status_of([&] { s.events_since(*cm, start); });
  CHECK(e.code == 410);
  CHECK(e.reason == "Expired");
  // The watch cache's wording: the version asked for, then the oldest one kept minus one.
  CHECK(e.message ==
        "too old resource version: " + std::to_string(start) + " (" + std::to_string(start + 2) + ")");
  CHECK(s.events_since(*cm, s.resource_version() - 2).size() == 2);
}
