// A label-selected list over HTTP selects what selecting each object of the unselected list by
// its labels selects, after the labels were changed by PATCH and PUT and objects deleted: the
// labels kubesim keeps beside each stored object (label_values.h) must follow every write.
// The expectation is computed here, from each object's JSON and the requirement rules of
// k8s.io/apimachinery pkg/labels/selector.go (Requirement.Matches), written out by hand per
// selector, so kubesim's own selector parser is not the judge.
#include "rest_fixture.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

using kubesim::json;
using kubesim::testing::SimServer;

namespace {

struct Req {
  std::string key, op;  // op: in, notin, exists, !, gt, lt (= and == are in, != is notin)
  std::vector<std::string> values;
};

// Requirement.Matches, from the object's labels as JSON.
bool holds(const Req& r, const json& labels) {
  const bool present = labels.is_object() && labels.contains(r.key);
  const std::string v = present ? labels[r.key].get<std::string>() : "";
  const bool in = std::find(r.values.begin(), r.values.end(), v) != r.values.end();
  if (r.op == "in") return present && in;
  if (r.op == "notin") return !present || !in;
  if (r.op == "exists") return present;
  if (r.op == "!") return !present;
  if (!present || v.empty() || !std::all_of(v.begin(), v.end(), ::isdigit)) return false;  // gt, lt
  return r.op == "gt" ? std::stoll(v) > std::stoll(r.values[0]) : std::stoll(v) < std::stoll(r.values[0]);
}

json pod(const std::string& name, const json& labels) {
  json p = {{"apiVersion", "v1"},
            {"kind", "Pod"},
            {"metadata", {{"name", name}, {"namespace", "default"}}},
            {"spec", {{"containers", {{{"name", "c"}, {"image", "busybox"}}}}}}};
  if (!labels.is_null()) p["metadata"]["labels"] = labels;
  return p;
}

std::string path_of(const std::string& selector, int limit, const std::string& token) {
  std::string p = "/api/v1/namespaces/default/pods?limit=" + std::to_string(limit);
  if (!selector.empty()) p += "&labelSelector=" + httplib::detail::encode_query_param(selector);
  if (!token.empty()) p += "&continue=" + httplib::detail::encode_query_param(token);
  return p;
}

// Every item of the list, walked in pages of `limit` (0: one page).
std::vector<json> list_all(httplib::SSLClient& c, const std::string& selector, int limit) {
  std::vector<json> out;
  std::string token;
  do {
    auto r = c.Get(path_of(selector, limit, token).c_str());
    REQUIRE(r);
    INFO(r->body);
    REQUIRE(r->status == 200);
    const json page = json::parse(r->body);
    for (const auto& item : page["items"]) out.push_back(item);
    token = page["metadata"].value("continue", "");
  } while (!token.empty());
  return out;
}

std::set<std::string> names(const std::vector<json>& items) {
  std::set<std::string> out;
  for (const auto& o : items) out.insert(o["metadata"]["name"].get<std::string>());
  return out;
}

}  // namespace

TEST_CASE("label-selected lists select what each object's labels select, after PATCH, PUT and DELETE",
          "[kubesim][rest][selector]") {
  SimServer sim;
  auto c = sim.client();
  const std::vector<std::string> apps = {"web", "db", ""};
  const std::vector<std::string> tiers = {"front", "back"};
  for (int i = 0; i < 60; ++i) {
    json labels = json::object();
    if (i % 7 != 0) labels["app"] = apps[i % 3];
    if (i % 2) labels["tier"] = tiers[i % 4 / 2];
    if (i % 5 != 1) labels["rank"] = i % 5 == 4 ? "x" + std::to_string(i) : std::to_string(i % 6);
    if (i % 11 == 0) labels["training.kubeflow.org/job-name"] = "job" + std::to_string(i % 3);
    auto r = c->Post("/api/v1/namespaces/default/pods", pod("p" + std::to_string(100 + i), i % 13 ? labels : json()).dump(),
                     kubesim::testing::kJson);
    REQUIRE(r);
    REQUIRE(r->status == 201);
  }
  // Labels changed by a merge patch (one added, one changed, one removed), by a JSON patch and
  // by a PUT of the whole object; objects deleted.
  for (int i = 0; i < 60; i += 4) {
    const json patch = {{"metadata", {{"labels", {{"app", "patched"}, {"tier", nullptr}, {"new", "yes"}}}}}};
    auto r = c->Patch(("/api/v1/namespaces/default/pods/p" + std::to_string(100 + i)).c_str(), patch.dump(),
                      "application/merge-patch+json");
    REQUIRE(r);
    REQUIRE(r->status == 200);
  }
  for (int i = 2; i < 60; i += 8) {
    const json patch = json::array({{{"op", "add"}, {"path", "/metadata/labels"}, {"value", {{"rank", "9"}}}}});
    auto r = c->Patch(("/api/v1/namespaces/default/pods/p" + std::to_string(100 + i)).c_str(), patch.dump(),
                      "application/json-patch+json");
    REQUIRE(r);
    REQUIRE(r->status == 200);
  }
  for (int i = 1; i < 60; i += 6) {
    const std::string path = "/api/v1/namespaces/default/pods/p" + std::to_string(100 + i);
    auto got = c->Get(path.c_str());
    REQUIRE(got);
    json p = json::parse(got->body);
    if (i % 12 == 1)
      p["metadata"].erase("labels");
    else
      p["metadata"]["labels"] = {{"app", "db"}, {"tier", "put"}, {"rank", "12"}};
    auto r = c->Put(path.c_str(), p.dump(), kubesim::testing::kJson);
    REQUIRE(r);
    REQUIRE(r->status == 200);
  }
  for (int i = 3; i < 60; i += 9) {
    auto r = c->Delete(("/api/v1/namespaces/default/pods/p" + std::to_string(100 + i)).c_str());
    REQUIRE(r);
    REQUIRE(r->status == 200);
  }

  const std::vector<json> all = list_all(*c, "", 0);
  REQUIRE(all.size() == 53);
  struct Case {
    std::string selector;
    std::vector<Req> reqs;
  };
  const std::vector<Case> cases = {
      {"app=web", {{"app", "in", {"web"}}}},
      {"app==db", {{"app", "in", {"db"}}}},
      {"app=", {{"app", "in", {""}}}},
      {"app!=web", {{"app", "notin", {"web"}}}},
      {"app in (web,patched)", {{"app", "in", {"web", "patched"}}}},
      {"app in ()", {{"app", "in", {""}}}},  // "()" is the set of "" (parseValues)
      {"app notin (web, db)", {{"app", "notin", {"web", "db"}}}},
      {"tier", {{"tier", "exists", {}}}},
      {"!tier", {{"tier", "!", {}}}},
      {"new", {{"new", "exists", {}}}},
      {"tier in (front,put),app", {{"tier", "in", {"front", "put"}}, {"app", "exists", {}}}},
      {"app notin (db),!new,tier!=back", {{"app", "notin", {"db"}}, {"new", "!", {}}, {"tier", "notin", {"back"}}}},
      {"rank>2", {{"rank", "gt", {"2"}}}},
      {"rank < 3", {{"rank", "lt", {"3"}}}},
      {"rank>0,rank<10,app=db", {{"rank", "gt", {"0"}}, {"rank", "lt", {"10"}}, {"app", "in", {"db"}}}},
      {"training.kubeflow.org/job-name in (job0,job2)", {{"training.kubeflow.org/job-name", "in", {"job0", "job2"}}}},
      {"training.kubeflow.org/job-name,app!=patched",
       {{"training.kubeflow.org/job-name", "exists", {}}, {"app", "notin", {"patched"}}}},
  };
  for (const auto& k : cases) {
    INFO(k.selector);
    std::set<std::string> expected;
    for (const auto& o : all) {
      const json labels = o["metadata"].value("labels", json());
      if (std::all_of(k.reqs.begin(), k.reqs.end(), [&](const Req& r) { return holds(r, labels); }))
        expected.insert(o["metadata"]["name"].get<std::string>());
    }
    CHECK(names(list_all(*c, k.selector, 0)) == expected);
    CHECK(names(list_all(*c, k.selector, 4)) == expected);  // pages, some computed ahead
  }
}
