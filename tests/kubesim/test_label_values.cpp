// Label selectors against the labels the store keeps beside each object (label_values.h), as
// kube-apiserver's watch cache keeps each object's labels.Set beside it: lists read them, not
// the object's JSON, and must select what the selector's rules select of the JSON.
#include "kubesim/label_values.h"
#include "kubesim/rest.h"
#include "kubesim/store.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <set>

using kubesim::FieldValues;
using kubesim::json;
using kubesim::LabelValues;
using kubesim::ListFilter;
using kubesim::Store;

namespace {

std::set<std::string> selected(Store& store, const kubesim::ResourceType& rt, const std::string& labels) {
  const ListFilter f = ListFilter::parse(rt, labels, "");
  std::set<std::string> out;
  const auto list = store.list_stored(
      rt, "", [&](const json&, const FieldValues& v, const LabelValues& l) { return f.matches(v, l); });
  for (const auto& o : list.items) out.insert((*o)["metadata"]["name"].get<std::string>());
  return out;
}

json config_map(const std::string& name, const json& labels) {
  json o = {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", name}, {"namespace", "default"}}}};
  if (!labels.is_null()) o["metadata"]["labels"] = labels;
  return o;
}

}  // namespace

TEST_CASE("LabelValues finds each label, of any length, and nothing else", "[kubesim][selector]") {
  const std::string long_value(300, 'v');
  const auto v = LabelValues::of(config_map("c", {{"app", "web"},
                                                  {"empty", ""},
                                                  {"training.kubeflow.org/job-name", long_value},
                                                  {"n", 3}}));
  CHECK(v.get("app") == std::optional<std::string_view>("web"));
  CHECK(v.get("empty") == std::optional<std::string_view>(""));
  CHECK(v.get("training.kubeflow.org/job-name") == std::optional<std::string_view>(long_value));
  CHECK(v.get("n") == std::optional<std::string_view>("3"));
  CHECK_FALSE(v.get("ap"));
  CHECK_FALSE(v.get("web"));  // a value is not a key
  CHECK_FALSE(LabelValues::of(config_map("c", nullptr)).get("app"));
  CHECK_FALSE(LabelValues::of(json::array()).get("app"));
}

TEST_CASE("a list's stored labels follow every write", "[kubesim][selector]") {
  Store store;
  const auto& cms = *store.find("", "v1", "configmaps");
  json c = store.create(cms, config_map("c", {{"app", "web"}}));
  CHECK(selected(store, cms, "app=web") == std::set<std::string>{"c"});
  c["metadata"]["labels"] = {{"app", "db"}};
  store.update(cms, c);
  CHECK(selected(store, cms, "app=web").empty());
  CHECK(selected(store, cms, "app in (db)") == std::set<std::string>{"c"});
  store.mutate(cms, "default", "c", [](json& o) {
    o["metadata"].erase("labels");
    return true;
  });
  CHECK(selected(store, cms, "app").empty());
  CHECK(selected(store, cms, "!app") == std::set<std::string>{"c"});
  store.remove(cms, "default", "c");
  CHECK(selected(store, cms, "!app").empty());
}

TEST_CASE("lists with stored labels, watch events and the selector's rules select the same objects",
          "[kubesim][selector]") {
  // Random labels and random selectors of every operator. The expectation is computed here
  // from the rules (k8s.io/apimachinery pkg/labels/selector.go Requirement.Matches): =, ==
  // and in need the label with one of the values; != and notin hold for an object without it.
  Store store;
  const auto& cms = *store.find("", "v1", "configmaps");
  std::mt19937 rng(11);
  auto below = [&rng](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
  const std::vector<std::string> keys = {"app", "tier", "training.kubeflow.org/job-name", "x"};
  const std::vector<std::string> values = {"", "a", "b", "web"};
  std::vector<json> made;
  for (int i = 0; i < 200; ++i) {
    json labels = json::object();
    for (const auto& k : keys)
      if (below(3)) labels[k] = values[below(values.size())];
    made.push_back(store.create(cms, config_map("c" + std::to_string(i), below(10) ? labels : json())));
  }
  struct Req {
    std::string key, op;
    std::vector<std::string> values;
  };
  auto holds = [](const Req& r, const json& obj) {
    const json* labels = obj["metadata"].contains("labels") ? &obj["metadata"]["labels"] : nullptr;
    const bool present = labels && labels->contains(r.key);
    const std::string v = present ? (*labels)[r.key].get<std::string>() : "";
    const bool in = std::find(r.values.begin(), r.values.end(), v) != r.values.end();
    if (r.op == "=" || r.op == "==" || r.op == "in") return present && in;
    if (r.op == "!=" || r.op == "notin") return !present || !in;
    if (r.op == "exists") return present;
    return !present;  // !key
  };
  for (int round = 0; round < 300; ++round) {
    std::vector<Req> reqs;
    std::string text;
    for (size_t k = 0, n = 1 + below(3); k < n; ++k) {
      Req r{keys[below(keys.size())], std::vector<std::string>{"=", "==", "!=", "in", "notin", "exists", "!"}[below(7)], {}};
      std::string part;
      if (r.op == "in" || r.op == "notin") {
        for (size_t j = 0, m = 1 + below(2); j < m; ++j) r.values.push_back(values[1 + below(values.size() - 1)]);
        part = r.key + " " + r.op + " (";
        for (size_t j = 0; j < r.values.size(); ++j) part += (j ? "," : "") + r.values[j];
        part += ")";
      } else if (r.op == "exists") {
        part = r.key;
      } else if (r.op == "!") {
        part = "!" + r.key;
      } else {
        r.values = {values[below(values.size())]};
        part = r.key + r.op + r.values[0];
      }
      text += (text.empty() ? "" : ",") + part;
      reqs.push_back(std::move(r));
    }
    INFO(text);
    const ListFilter f = ListFilter::parse(cms, text, "");
    std::set<std::string> by_rules, by_event;
    for (const auto& o : made) {
      const std::string name = o["metadata"]["name"];
      if (std::all_of(reqs.begin(), reqs.end(), [&](const Req& r) { return holds(r, o); })) by_rules.insert(name);
      if (f.matches(o)) by_event.insert(name);
    }
    CHECK(selected(store, cms, text) == by_rules);
    CHECK(by_event == by_rules);
  }
}
