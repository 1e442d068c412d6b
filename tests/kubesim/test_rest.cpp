#include "rest_fixture.h"

#include "kubesim/builtin_types.h"

#include <catch2/catch.hpp>

using kubesim::json;
using kubesim::testing::body_json;
using kubesim::testing::kJson;
using kubesim::testing::SimServer;

namespace {

std::string pod(const std::string& name, const json& labels = json::object(), int containers = 1) {
  json cs = json::array();
  for (int i = 0; i < containers; ++i) cs.push_back({{"name", "c" + std::to_string(i)}, {"image", "busybox"}});
  return json{{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", {{"name", name}, {"labels", labels}}},
              {"spec", {{"containers", cs}}}}
      .dump();
}

}  // namespace

TEST_CASE("REST: authentication by token and client certificate", "[kubesim][rest]") {
  SimServer sim;
  auto anon = sim.client(false);
  auto r = anon->Get("/api/v1/namespaces");
  REQUIRE(r);
  CHECK(r->status == 401);
  CHECK(body_json(r)["reason"] == "Unauthorized");

  auto cert = sim.server->client_cert("alice");
  auto by_cert = sim.client(false, &cert);
  r = by_cert->Get("/api/v1/namespaces/default");
  REQUIRE(r);
  CHECK(r->status == 200);

  auto viewer_cert = sim.server->client_cert("viewer", {});
  auto viewer = sim.client(false, &viewer_cert);
  r = viewer->Post("/api/v1/namespaces/default/pods", pod("x"), kJson);
  REQUIRE(r);
  CHECK(r->status == 403);
  CHECK(body_json(r)["message"] ==
        "pods is forbidden: User \"viewer\" cannot create resource \"pods\" in API group \"\" in the "
        "namespace \"default\"");
}

TEST_CASE("REST: CRUD with kube-apiserver Status errors", "[kubesim][rest]") {
  SimServer sim;
  auto c = sim.client();
  auto r = c->Post("/api/v1/namespaces/default/pods", pod("web"), kJson);
  REQUIRE(r);
  CHECK(r->status == 201);
  json created = body_json(r);
  CHECK(created["metadata"]["namespace"] == "default");

  r = c->Post("/api/v1/namespaces/default/pods", pod("web"), kJson);
  CHECK(r->status == 409);
  CHECK(body_json(r)["message"] == "pods \"web\" already exists");

  r = c->Get("/api/v1/namespaces/default/pods/nope");
  CHECK(r->status == 404);
  CHECK(body_json(r)["details"] == json{{"name", "nope"}, {"kind", "pods"}});

  r = c->Post("/api/v1/namespaces/missing/pods", pod("a"), kJson);
  CHECK(r->status == 404);
  CHECK(body_json(r)["message"] == "namespaces \"missing\" not found");

  r = c->Post("/api/v1/namespaces/default/pods", pod("Bad_Name"), kJson);
  CHECK(r->status == 422);
  json st = body_json(r);
  CHECK(st["reason"] == "Invalid");
  CHECK(st["details"]["causes"][0]["field"] == "metadata.name");
  CHECK(st["details"]["causes"][0]["reason"] == "FieldValueInvalid");

  r = c->Post("/api/v1/namespaces/default/services",
              json{{"metadata", {{"name", "1svc"}}}, {"spec", json::object()}}.dump(), kJson);
  CHECK(r->status == 422);
  CHECK(body_json(r)["message"].get<std::string>().find("DNS-1035 label") != std::string::npos);

  // update with a stale resourceVersion
  json stale = created;
  r = c->Patch("/api/v1/namespaces/default/pods/web", R"({"metadata":{"labels":{"x":"y"}}})",
               "application/merge-patch+json");
  CHECK(r->status == 200);
  CHECK(body_json(r)["metadata"]["labels"]["x"] == "y");
  r = c->Put("/api/v1/namespaces/default/pods/web", stale.dump(), kJson);
  CHECK(r->status == 409);
  CHECK(body_json(r)["reason"] == "Conflict");

  r = c->Delete("/api/v1/namespaces/default/pods/web");
  CHECK(r->status == 200);
  r = c->Get("/api/v1/namespaces/default/pods/web");
  CHECK(r->status == 404);

  r = c->Get("/apis/kubeflow.org/v1/namespaces/default/pytorchjobs/x");
  CHECK(r->status == 404);  // the type is not served without its CRD
  CHECK(body_json(r)["message"] == "the server could not find the requested resource");
  r = c->Post("/api/v1/namespaces/default/pods/web", pod("web"), kJson);
  CHECK(r->status == 405);
}

TEST_CASE("REST: lists with selectors, paging and Table", "[kubesim][rest]") {
  SimServer sim;
  auto c = sim.client();
  for (int i = 0; i < 5; ++i)
    REQUIRE(c->Post("/api/v1/namespaces/default/pods", pod("p" + std::to_string(i), {{"idx", std::to_string(i)}, {"app", i < 3 ? "a" : "b"}}), kJson)->status == 201);
  auto r = c->Get("/api/v1/pods?labelSelector=app%3Da");
  json list = body_json(r);
  CHECK(list["kind"] == "PodList");
  CHECK(list["items"].size() == 3);
  r = c->Get("/api/v1/namespaces/default/pods?labelSelector=idx%20in%20(1,4),app!%3Da");
  CHECK(body_json(r)["items"].size() == 1);
  r = c->Get("/api/v1/namespaces/default/pods?fieldSelector=metadata.name%3Dp2");
  CHECK(body_json(r)["items"][0]["metadata"]["name"] == "p2");
  r = c->Get("/api/v1/namespaces/default/pods?fieldSelector=spec.foo%3Dx");
  CHECK(r->status == 400);
  CHECK(body_json(r)["message"] == "field label not supported: spec.foo");

  r = c->Get("/api/v1/namespaces/default/pods?limit=2");
  list = body_json(r);
  CHECK(list["items"].size() == 2);
  CHECK(list["metadata"]["remainingItemCount"] == 3);
  std::string token = list["metadata"]["continue"];
  r = c->Get(("/api/v1/namespaces/default/pods?limit=2&continue=" + httplib::detail::encode_query_param(token)).c_str());
  CHECK(body_json(r)["items"][0]["metadata"]["name"] == "p2");

  httplib::Headers table = {{"Accept", "application/json;as=Table;v=v1;g=meta.k8s.io,application/json"}};
  r = c->Get("/api/v1/namespaces/default/pods", table);
  json t = body_json(r);
  CHECK(t["kind"] == "Table");
  std::vector<std::string> cols;
  for (const auto& cd : t["columnDefinitions"])
    if (cd["priority"] == 0) cols.push_back(cd["name"]);
  CHECK(cols == std::vector<std::string>{"Name", "Ready", "Status", "Restarts", "Age"});
  CHECK(t["rows"].size() == 5);
  CHECK(t["rows"][0]["cells"][1] == "0/1");
  CHECK(t["rows"][0]["object"]["kind"] == "PartialObjectMetadata");
}

TEST_CASE("REST: discovery documents", "[kubesim][rest]") {
  SimServer sim;
  auto c = sim.client();
  json v1 = body_json(c->Get("/api/v1"));
  CHECK(v1["kind"] == "APIResourceList");
  bool found = false;
  for (const auto& r : v1["resources"])
    if (r["name"] == "pods") {
      found = true;
      CHECK(r["shortNames"] == json{"po"});
      CHECK(r["kind"] == "Pod");
      CHECK(r["namespaced"] == true);
    }
  CHECK(found);
  json groups = body_json(c->Get("/apis"));
  CHECK(groups["kind"] == "APIGroupList");
  CHECK(body_json(c->Get("/version"))["major"] == "1");
  CHECK(c->Get("/openapi/v3")->status == 200);
}

TEST_CASE("REST: watch streams initial and live events until timeoutSeconds", "[kubesim][rest]") {
  SimServer sim;
  auto c = sim.client();
  REQUIRE(c->Post("/api/v1/namespaces/default/pods", pod("before", {{"w", "1"}}), kJson)->status == 201);
  std::thread writer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    auto w = sim.client();
    w->Post("/api/v1/namespaces/default/pods", pod("other"), kJson);
    w->Post("/api/v1/namespaces/default/pods", pod("after", {{"w", "1"}}), kJson);
    w->Delete("/api/v1/namespaces/default/pods/before");
  });
  auto r = c->Get("/api/v1/namespaces/default/pods?watch=true&labelSelector=w%3D1&timeoutSeconds=2");
  writer.join();
  REQUIRE(r);
  std::vector<std::string> events;
  std::istringstream in(r->body);
  for (std::string line; std::getline(in, line);) {
    json ev = json::parse(line);
    events.push_back(ev["type"].get<std::string>() + ":" + ev["object"]["metadata"]["name"].get<std::string>());
  }
  // Deleting a pod first writes its deletionTimestamp (MODIFIED), then removes it (DELETED):
  // never scheduled, it has no grace period.
  CHECK(events ==
        std::vector<std::string>{"ADDED:before", "ADDED:after", "MODIFIED:before", "DELETED:before"});
}

TEST_CASE("REST: a filtered watch sees an object that stops matching as DELETED, one that starts as ADDED",
          "[kubesim][rest][watch]") {
  // k8s.io/apiserver pkg/storage/cacher/cache_watcher.go convertToWatchEvent: DELETED carries
  // the object as it was (still matching) with the change's resourceVersion.
  SimServer sim;
  auto c = sim.client();
  REQUIRE(c->Post("/api/v1/namespaces/default/pods", pod("p", {{"w", "1"}}), kJson)->status == 201);
  std::thread writer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    auto w = sim.client();
    const std::string merge = "application/merge-patch+json";
    w->Patch("/api/v1/namespaces/default/pods/p", R"({"metadata":{"labels":{"w":"2"}}})", merge);
    w->Patch("/api/v1/namespaces/default/pods/p", R"({"metadata":{"labels":{"x":"y"}}})", merge);
    w->Patch("/api/v1/namespaces/default/pods/p", R"({"metadata":{"labels":{"w":"1"}}})", merge);
  });
  auto r = c->Get("/api/v1/namespaces/default/pods?watch=true&labelSelector=w%3D1&timeoutSeconds=2");
  writer.join();
  REQUIRE(r);
  std::vector<json> events;
  std::istringstream in(r->body);
  for (std::string line; std::getline(in, line);) events.push_back(json::parse(line));
  REQUIRE(events.size() == 3);  // the second patch changes an object that matches neither time
  CHECK(events[0]["type"] == "ADDED");
  CHECK(events[1]["type"] == "DELETED");
  CHECK(events[1]["object"]["metadata"]["labels"]["w"] == "1");
  CHECK(events[2]["type"] == "ADDED");
  CHECK(events[2]["object"]["metadata"]["labels"]["w"] == "1");
  CHECK(events[2]["object"]["metadata"]["labels"]["x"] == "y");
  // The DELETED event's version is the change's: one before the second patch's.
  const auto rv = [](const json& e) { return std::stoull(e["object"]["metadata"]["resourceVersion"].get<std::string>()); };
  CHECK(rv(events[1]) > rv(events[0]));
  CHECK(rv(events[2]) == rv(events[1]) + 2);
}

TEST_CASE("REST: pods/log options and errors", "[kubesim][rest]") {
  SimServer sim;
  auto c = sim.client();
  REQUIRE(c->Post("/api/v1/namespaces/default/pods", pod("one"), kJson)->status == 201);
  REQUIRE(c->Post("/api/v1/namespaces/default/pods", pod("two", {}, 2), kJson)->status == 201);
  auto r = c->Get("/api/v1/namespaces/default/pods/one/log");
  CHECK(r->status == 400);
  CHECK(body_json(r)["message"] == "container \"c0\" in pod \"one\" is waiting to start: ContainerCreating");
  r = c->Get("/api/v1/namespaces/default/pods/two/log");
  CHECK(r->status == 400);
  CHECK(body_json(r)["message"] == "a container name must be specified for pod two, choose one of: [c0 c1]");

  auto t0 = std::chrono::system_clock::time_point(std::chrono::seconds(1700000000));
  sim.logs.append("default", "one", "c0", "first", t0);
  sim.logs.append("default", "one", "c0", "second", t0 + std::chrono::milliseconds(1500));
  r = c->Get("/api/v1/namespaces/default/pods/one/log");
  CHECK(r->body == "first\nsecond\n");
  r = c->Get("/api/v1/namespaces/default/pods/one/log?tailLines=1&timestamps=true");
  // kubelet's RFC3339NanoFixed: nine digits, trailing zeros kept.
  CHECK(r->body == "2023-11-14T22:13:21.500000000Z second\n");

  std::thread closer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    sim.logs.append("default", "one", "c0", "third");
    sim.logs.close("default", "one", "c0");
  });
  r = c->Get("/api/v1/namespaces/default/pods/one/log?follow=true");
  closer.join();
  REQUIRE(r);
  CHECK(r->body == "first\nsecond\nthird\n");
  // Following a closed log with a tail or a byte limit starts from the selected lines.
  r = c->Get("/api/v1/namespaces/default/pods/one/log?follow=true&tailLines=2");
  REQUIRE(r);
  CHECK(r->body == "second\nthird\n");
  r = c->Get("/api/v1/namespaces/default/pods/one/log?follow=true&limitBytes=8");
  REQUIRE(r);
  CHECK(r->body == "first\nse");
}

TEST_CASE("REST: watch from a resourceVersion too old for the history is 200 and one ERROR event",
          "[kubesim][rest][watch]") {
  SimServer sim;
  sim.store.set_history_limit(2);
  auto c = sim.client();
  for (const char* n : {"a", "b", "c", "d"})
    REQUIRE(c->Post("/api/v1/namespaces/default/pods", pod(n), kJson)->status == 201);
  const uint64_t rv = sim.store.resource_version();
  // kube-apiserver accepts the watch, then its watch cache sends one ERROR event with a
  // 410 Expired Status and ends the stream (cacher.go newErrWatcher, watch_cache.go).
  auto r = c->Get("/api/v1/namespaces/default/pods?watch=true&resourceVersion=1&timeoutSeconds=30");
  REQUIRE(r);
  CHECK(r->status == 200);
  std::istringstream in(r->body);
  std::vector<json> events;
  for (std::string line; std::getline(in, line);) events.push_back(json::parse(line));
  REQUIRE(events.size() == 1);
  CHECK(events[0]["type"] == "ERROR");
  const json& status = events[0]["object"];
  CHECK(status["kind"] == "Status");
  CHECK(status["apiVersion"] == "v1");
  CHECK(status["status"] == "Failure");
  CHECK(status["code"] == 410);
  CHECK(status["reason"] == "Expired");
  CHECK(status["message"] == "too old resource version: 1 (" + std::to_string(rv - 2) + ")");
}

TEST_CASE("REST: watch BOOKMARKs only when asked for, with only metadata.resourceVersion",
          "[kubesim][rest][watch]") {
  kubesim::ServerOptions opts;
  opts.bookmark_interval = std::chrono::milliseconds(200);
  SimServer sim(nullptr, opts);
  auto c = sim.client();
  REQUIRE(c->Post("/api/v1/namespaces/default/pods", pod("a"), kJson)->status == 201);
  const std::string rv = std::to_string(sim.store.resource_version());
  auto r =
      c->Get("/api/v1/namespaces/default/pods?watch=true&allowWatchBookmarks=true&resourceVersion=" + rv +
             "&timeoutSeconds=3");
  REQUIRE(r);
  std::istringstream in(r->body);
  std::vector<json> bookmarks;
  for (std::string line; std::getline(in, line);) {
    json ev = json::parse(line);
    CHECK(ev["type"] == "BOOKMARK");
    bookmarks.push_back(ev["object"]);
  }
  REQUIRE(bookmarks.size() >= 2);
  CHECK(bookmarks[0] == json{{"kind", "Pod"}, {"apiVersion", "v1"}, {"metadata", {{"resourceVersion", rv}}}});
  // Without allowWatchBookmarks there are none.
  r = c->Get("/api/v1/namespaces/default/pods?watch=true&resourceVersion=" + rv + "&timeoutSeconds=1");
  REQUIRE(r);
  CHECK(r->body.empty());
}

TEST_CASE("REST: a custom resource type that is unregistered answers 404", "[kubesim][rest]") {
  SimServer sim;
  kubesim::register_builtin_crds(sim.store);
  auto c = sim.client();
  CHECK(c->Get("/apis/kubeflow.org/v2beta1/namespaces/default/mpijobs")->status == 200);
  const auto* rt = sim.store.resolve("mpijobs");
  REQUIRE(rt);
  CHECK(rt->kind == "MPIJob");
  sim.store.unregister_type(rt->group, rt->plural);
  auto r = c->Get("/apis/kubeflow.org/v2beta1/namespaces/default/mpijobs");
  CHECK(r->status == 404);
  json gv = body_json(c->Get("/apis/kubeflow.org/v1"));
  CHECK(gv["resources"][0]["name"] == "pytorchjobs");
}

TEST_CASE("REST: a YAML body reads as kube-apiserver reads it", "[kubesim][rest]") {
  // The apiserver's YAML serializer converts with sigs.k8s.io/yaml YAMLToJSON (apimachinery
  // runtime/serializer/json): plain 0x3, +2 and 017 are the numbers 3, 2 and 15 (go-yaml v2
  // resolve.go, ParseInt base 0), yes is true. kubesim kept them as strings.
  SimServer sim;
  auto c = sim.client();
  const std::string body = R"(apiVersion: batch/v1
kind: Job
metadata:
  name: typed
  labels: {octal: "017"}
spec:
  backoffLimit: 0x3
  parallelism: +2
  completions: 017
  suspend: yes
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, image: busybox}]
)";
  auto r = c->Post("/apis/batch/v1/namespaces/default/jobs", body, "application/yaml");
  REQUIRE(r);
  REQUIRE(r->status == 201);
  const json job = body_json(c->Get("/apis/batch/v1/namespaces/default/jobs/typed"));
  CHECK(job["spec"]["backoffLimit"] == 3);
  CHECK(job["spec"]["backoffLimit"].is_number_integer());
  CHECK(job["spec"]["parallelism"] == 2);
  CHECK(job["spec"]["completions"] == 15);
  CHECK(job["spec"]["suspend"] == true);
  CHECK(job["metadata"]["labels"]["octal"] == "017");

  r = c->Post("/apis/batch/v1/namespaces/default/jobs", "a: [1, 2\n", "application/yaml");
  REQUIRE(r);
  CHECK(r->status == 400);
  CHECK(body_json(r)["message"].get<std::string>().rfind("error decoding request body: line 2", 0) == 0);
}
