// lib/object: the metadata, owner-reference and condition reads trainctl and kubesim share.
#include <catch2/catch.hpp>

#include "object/conditions.h"
#include "object/fields.h"
#include "object/meta.h"
#include "object/owner.h"

using nlohmann::json;
using namespace trainctl::object;

namespace {

json pod_with_conditions(json conditions) {
  return {{"metadata", {{"name", "p"}}}, {"status", {{"conditions", std::move(conditions)}}}};
}

}  // namespace

TEST_CASE("condition: the first entry of the type, null when absent or malformed") {
  const json pod = pod_with_conditions(json::array({
      {{"type", "PodScheduled"}, {"status", "True"}},
      {{"type", "Ready"}, {"status", "False"}, {"reason", "ContainersNotReady"}},
  }));
  CHECK(condition(pod, "Ready").value("reason", "") == "ContainersNotReady");
  CHECK(condition(pod, "Initialized").is_null());
  CHECK(condition(json::object(), "Ready").is_null());
  CHECK(condition(json{{"status", {{"conditions", {{"type", "Ready"}}}}}}, "Ready")
            .is_null());  // an object, not a list
  CHECK(condition(json("text"), "Ready").is_null());
}

TEST_CASE("condition_true: only status \"True\" of that type") {
  const json job = pod_with_conditions(json::array({
      {{"type", "Created"}, {"status", "True"}},
      {{"type", "Running"}, {"status", "False"}},
      {{"type", "Succeeded"}, {"status", true}},  // not the string "True"
  }));
  CHECK(condition_true(job, "Created"));
  CHECK_FALSE(condition_true(job, "Running"));
  CHECK_FALSE(condition_true(job, "Succeeded"));
  CHECK_FALSE(condition_true(job, "Failed"));
  CHECK_FALSE(condition_true(json(nullptr), "Failed"));
}

TEST_CASE("is_condition_true reads a conditions list, as a job's status holds it") {
  const json status = {{"conditions", json::array({{{"type", "Suspended"}, {"status", "True"}}})}};
  CHECK(is_condition_true(at(status, "conditions"), "Suspended"));
  CHECK_FALSE(is_condition_true(at(status, "conditions"), "Running"));
  CHECK_FALSE(is_condition_true(at(json::object(), "conditions"), "Suspended"));
  CHECK(find_condition(status["conditions"], "Suspended").value("status", "") == "True");
}

TEST_CASE("true_since: when the first True condition of the types changed, as jobFinishTime reads it") {
  const json conditions = json::array({
      {{"type", "SuccessCriteriaMet"}, {"status", "True"}, {"lastTransitionTime", "2026-01-01T00:00:01Z"}},
      {{"type", "Failed"}, {"status", "False"}, {"lastTransitionTime", "2026-01-01T00:00:02Z"}},
      {{"type", "Complete"}, {"status", "True"}, {"lastTransitionTime", "2026-01-01T00:00:03Z"}},
  });
  CHECK(true_since(conditions, {"Complete", "Failed"}) == "2026-01-01T00:00:03Z");
  CHECK(true_since(conditions, {"Failed"}).empty());  // there, but False
  CHECK(true_since(conditions, {"Suspended"}).empty());
  CHECK(true_since(json::object(), {"Complete"}).empty());
  CHECK(true_since(json::array({{{"type", "Complete"}, {"status", "True"}}}), {"Complete"})
            .empty());  // no time
}

TEST_CASE("labels and annotations: strings only, empty when absent") {
  const json obj = {{"metadata",
                     {{"name", "job"},
                      {"namespace", "team"},
                      {"uid", "u-1"},
                      {"labels", {{"app", "pytorchjob"}, {"release", "job"}, {"n", 3}}},
                      {"annotations", {{"note", "x"}}}}}};
  CHECK(name_of(obj) == "job");
  CHECK(namespace_of(obj) == "team");
  CHECK(uid_of(obj) == "u-1");
  CHECK(label(obj, "app") == "pytorchjob");
  CHECK(label(obj, "n").empty());
  CHECK(label(obj, "missing").empty());
  CHECK(annotation(obj, "note") == "x");
  CHECK(annotation(obj, "app").empty());
  CHECK(name_of(json::array()).empty());

  CHECK(labels_match(obj, "app=pytorchjob,release=job"));
  CHECK(labels_match(obj, "app"));
  CHECK_FALSE(labels_match(obj, "app=tfjob"));
  CHECK_FALSE(labels_match(obj, "n=3"));  // a number is not a label value
  CHECK_FALSE(labels_match(obj, "missing"));

  CHECK(labels_contain(obj, {{"app", "pytorchjob"}, {"release", "job"}}));
  CHECK(labels_contain(obj, {}));
  CHECK_FALSE(labels_contain(obj, {{"app", "pytorchjob"}, {"release", "other"}}));
  CHECK_FALSE(labels_contain(obj, {{"n", "3"}}));
  CHECK_FALSE(labels_contain(json{{"metadata", json::object()}}, {{"app", "pytorchjob"}}));
}

TEST_CASE("owner references: NewControllerRef, GetControllerOf, IsControlledBy") {
  const json owner = {{"apiVersion", "kubeflow.org/v2beta1"},
                      {"kind", "MPIJob"},
                      {"metadata", {{"name", "pi"}, {"namespace", "default"}, {"uid", "uid-pi"}}}};
  const json ref = owner_reference(owner);
  CHECK(ref == json{{"apiVersion", "kubeflow.org/v2beta1"},
                    {"kind", "MPIJob"},
                    {"name", "pi"},
                    {"uid", "uid-pi"},
                    {"controller", true},
                    {"blockOwnerDeletion", true}});
  CHECK(owner_reference(owner, false)["controller"] == false);

  const json other = {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"name", "cm"}, {"uid", "uid-cm"}};
  json pod = {{"metadata", {{"name", "pi-worker-0"}, {"ownerReferences", json::array({other, ref})}}}};
  REQUIRE(controller_of(pod) != nullptr);
  CHECK((*controller_of(pod))["uid"] == "uid-pi");
  CHECK(controlled_by(pod, "uid-pi"));
  CHECK_FALSE(controlled_by(pod, "uid-cm"));  // an owner, not the controller
  CHECK_FALSE(controlled_by(pod, ""));
  CHECK(has_owner(pod, "uid-cm"));
  CHECK(has_owner(pod, "uid-pi"));
  CHECK_FALSE(has_owner(pod, "uid-x"));
  CHECK_FALSE(has_owner(pod, ""));

  pod["metadata"]["ownerReferences"][1]["controller"] = "true";  // not a boolean
  CHECK(controller_of(pod) == nullptr);
  CHECK(controller_of(json::object()) == nullptr);
}
