// Field selectors against the values the store keeps beside each object (selectable_fields.h):
// the values kube-apiserver computes, and the same answers for lists (stored values), watch
// events (values computed from the event's object) and a plain walk of the JSON.
#include "kubesim/rest.h"
#include "kubesim/selectable_fields.h"
#include "kubesim/store.h"

#include <catch2/catch.hpp>

#include <random>
#include <set>

using kubesim::FieldSelector;
using kubesim::FieldValues;
using kubesim::json;
using kubesim::ListFilter;
using kubesim::Store;

namespace {

std::set<std::string> names(const Store::ListResult& r) {
  std::set<std::string> out;
  for (const auto& o : r.items) out.insert((*o)["metadata"]["name"].get<std::string>());
  return out;
}

std::set<std::string> selected(Store& store, const kubesim::ResourceType& rt, const std::string& selector) {
  const ListFilter f = ListFilter::parse(rt, "", selector);
  return names(store.list_stored(rt, "", [&](const json&, const FieldValues& v, const kubesim::LabelValues& l) { return f.matches(v, l); }));
}

}  // namespace

TEST_CASE("FieldValues keeps values of any length in order", "[kubesim][selector]") {
  FieldValues v;
  const std::string long1(200, 'x'), long2(20000, 'y');
  for (const std::string& s : {std::string(), std::string("Running"), long1, std::string(127, 'a'),
                               std::string(128, 'b'), long2, std::string(1, '\0')})
    v.add(s);
  CHECK(v.size() == 7);
  CHECK(v.get(0).empty());
  CHECK(v.get(1) == "Running");
  CHECK(v.get(2) == long1);
  CHECK(v.get(3) == std::string(127, 'a'));
  CHECK(v.get(4) == std::string(128, 'b'));
  CHECK(v.get(5) == long2);
  CHECK(v.get(6) == std::string(1, '\0'));
  CHECK(v.get(7).empty());
}

TEST_CASE("selectable fields take kube-apiserver's values, not the JSON as written", "[kubesim][selector]") {
  Store store;
  const auto& pods = *store.find("", "v1", "pods");
  const auto& jobs = *store.find("batch", "v1", "jobs");
  const auto& events = *store.find("", "v1", "events");
  const auto& nodes = *store.find("", "v1", "nodes");
  auto pod = [](const std::string& name, json spec, json status) {
    spec["containers"] = json::array({{{"name", "c"}, {"image", "busybox"}}});
    return json{{"apiVersion", "v1"}, {"kind", "Pod"},
                {"metadata", {{"name", name}, {"namespace", "default"}}}, {"spec", spec}, {"status", status}};
  };
  store.create(pods, pod("plain", json::object(), json::object()));
  store.create(pods, pod("host", {{"hostNetwork", true}}, {{"podIPs", json::array({{{"ip", "10.0.0.5"}}})}}));
  // ToSelectableFields: spec.hostNetwork is "false" when absent; status.podIP is podIPs[0].
  CHECK(selected(store, pods, "spec.hostNetwork=false") == std::set<std::string>{"plain"});
  CHECK(selected(store, pods, "spec.hostNetwork=true") == std::set<std::string>{"host"});
  CHECK(selected(store, pods, "status.podIP=10.0.0.5") == std::set<std::string>{"host"});

  // JobToSelectableFields: status.successful is the count of status.succeeded, 0 without it.
  auto job = [](const std::string& name, json status) {
    return json{{"apiVersion", "batch/v1"}, {"kind", "Job"},
                {"metadata", {{"name", name}, {"namespace", "default"}}},
                {"spec", {{"template", {{"spec", {{"containers", json::array()}}}}}}},
                {"status", status}};
  };
  store.create(jobs, job("fresh", json::object()));
  store.create(jobs, job("done", {{"succeeded", 2}}));
  CHECK(selected(store, jobs, "status.successful=0") == std::set<std::string>{"fresh"});
  CHECK(selected(store, jobs, "status.successful=2") == std::set<std::string>{"done"});

  // Events: source is source.component, else reportingComponent.
  auto event = [](const std::string& name, json extra) {
    json e = {{"apiVersion", "v1"}, {"kind", "Event"}, {"metadata", {{"name", name}, {"namespace", "default"}}},
              {"involvedObject", {{"kind", "Pod"}, {"name", "plain"}}}, {"reason", "Started"}, {"type", "Normal"}};
    for (auto it = extra.begin(); it != extra.end(); ++it) e[it.key()] = *it;
    return e;
  };
  store.create(events, event("by-kubelet", {{"source", {{"component", "kubelet"}}}}));
  store.create(events, event("by-kueue", {{"reportingComponent", "kueue-admission"}}));
  CHECK(selected(store, events, "source=kubelet") == std::set<std::string>{"by-kubelet"});
  CHECK(selected(store, events, "source=kueue-admission") == std::set<std::string>{"by-kueue"});
  CHECK(selected(store, events, "reportingComponent=kueue-admission") == std::set<std::string>{"by-kueue"});
  CHECK(selected(store, events, "involvedObject.kind=Pod,involvedObject.name=plain,type=Normal").size() == 2);

  store.create(nodes, {{"apiVersion", "v1"}, {"kind", "Node"}, {"metadata", {{"name", "n1"}}}});
  store.create(nodes, {{"apiVersion", "v1"}, {"kind", "Node"}, {"metadata", {{"name", "n2"}}},
                       {"spec", {{"unschedulable", true}}}});
  CHECK(selected(store, nodes, "spec.unschedulable=false") == std::set<std::string>{"n1"});
  CHECK(selected(store, nodes, "spec.unschedulable!=false") == std::set<std::string>{"n2"});
}

TEST_CASE("a list's stored field values follow every write", "[kubesim][selector]") {
  Store store;
  const auto& pods = *store.find("", "v1", "pods");
  json p = {{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", {{"name", "p"}, {"namespace", "default"}}},
            {"spec", {{"containers", json::array({{{"name", "c"}, {"image", "busybox"}}})}}},
            {"status", {{"phase", "Pending"}}}};
  p = store.create(pods, p);
  CHECK(selected(store, pods, "status.phase=Pending") == std::set<std::string>{"p"});
  p["status"]["phase"] = "Running";
  p["spec"]["nodeName"] = "n1";
  store.update(pods, p);
  CHECK(selected(store, pods, "status.phase=Pending").empty());
  CHECK(selected(store, pods, "status.phase=Running,spec.nodeName=n1") == std::set<std::string>{"p"});
}

TEST_CASE("lists, watch events and a walk of the JSON select the same pods", "[kubesim][selector]") {
  // Random pods, random selectors on the string fields, where the stored values, the values
  // computed for a watch event and FieldSelector's walk of the JSON must all agree.
  Store store;
  const auto& pods = *store.find("", "v1", "pods");
  store.create(*store.find("", "v1", "namespaces"),
               {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "team-a"}}}});
  std::mt19937 rng(7);
  auto pick = [&](std::initializer_list<const char*> values) {
    auto it = values.begin();
    std::advance(it, std::uniform_int_distribution<size_t>(0, values.size() - 1)(rng));
    return std::string(*it);
  };
  const std::vector<std::pair<std::string, std::vector<std::string>>> fields = {
      {"spec.nodeName", {"", "n1", "n2"}},
      {"spec.restartPolicy", {"", "Never", "OnFailure"}},
      {"spec.schedulerName", {"", "default-scheduler", "volcano"}},
      {"spec.serviceAccountName", {"", "default"}},
      {"status.phase", {"", "Pending", "Running", "Succeeded", "Failed"}},
      {"status.nominatedNodeName", {"", "n2"}}};
  std::vector<json> made;
  for (int i = 0; i < 300; ++i) {
    json p = {{"apiVersion", "v1"}, {"kind", "Pod"},
              {"metadata", {{"name", "p" + std::to_string(i)}, {"namespace", pick({"default", "team-a"})}}},
              {"spec", {{"containers", json::array({{{"name", "c"}, {"image", "busybox"}}})}}},
              {"status", json::object()}};
    for (const auto& [path, values] : fields) {
      const std::string v = values[std::uniform_int_distribution<size_t>(0, values.size() - 1)(rng)];
      if (v.empty()) continue;  // absent
      const size_t dot = path.find('.');
      p[path.substr(0, dot)][path.substr(dot + 1)] = v;
    }
    made.push_back(store.create(pods, p));
  }
  for (int round = 0; round < 200; ++round) {
    std::string sel;
    const int n = std::uniform_int_distribution<int>(1, 3)(rng);
    for (int k = 0; k < n; ++k) {
      const auto& [path, values] = fields[std::uniform_int_distribution<size_t>(0, fields.size() - 1)(rng)];
      sel += (sel.empty() ? "" : ",") + path + pick({"=", "==", "!="}) +
             values[std::uniform_int_distribution<size_t>(0, values.size() - 1)(rng)];
    }
    if (round % 4 == 0) sel += std::string(",metadata.namespace") + pick({"=", "!="}) + "team-a";
    INFO(sel);
    const ListFilter f = ListFilter::parse(pods, "", sel);
    const FieldSelector walk = FieldSelector::parse(sel);
    std::set<std::string> by_walk, by_event;
    for (const auto& p : made) {
      if (walk.matches(p)) by_walk.insert(p["metadata"]["name"].get<std::string>());
      if (f.matches(p)) by_event.insert(p["metadata"]["name"].get<std::string>());
    }
    const std::set<std::string> by_list = selected(store, pods, sel);
    CHECK(by_list == by_walk);
    CHECK(by_event == by_walk);
  }
}
