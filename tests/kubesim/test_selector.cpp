#include "kubesim/selector.h"
#include "kubesim/store.h"

#include <catch2/catch.hpp>

using kubesim::FieldSelector;
using kubesim::LabelSelector;
using nlohmann::json;

TEST_CASE("label selectors: equality and set-based requirements", "[kubesim][selector]") {
  json labels = {{"app", "web"}, {"tier", "front"}, {"training.kubeflow.org/job-name", "demo"}};
  CHECK(LabelSelector::parse("").matches(labels));
  CHECK(LabelSelector::parse("app=web").matches(labels));
  CHECK(LabelSelector::parse("app==web").matches(labels));
  CHECK_FALSE(LabelSelector::parse("app=db").matches(labels));
  CHECK(LabelSelector::parse("app!=db").matches(labels));
  CHECK(LabelSelector::parse("missing!=x").matches(labels));  // != matches absent keys
  CHECK(LabelSelector::parse("app in (db, web)").matches(labels));
  CHECK_FALSE(LabelSelector::parse("app notin (db,web)").matches(labels));
  CHECK(LabelSelector::parse("missing notin (x)").matches(labels));
  CHECK(LabelSelector::parse("tier").matches(labels));
  CHECK_FALSE(LabelSelector::parse("!tier").matches(labels));
  CHECK(LabelSelector::parse("!missing").matches(labels));
  CHECK(LabelSelector::parse("app=web,tier in (front),training.kubeflow.org/job-name=demo").matches(labels));
  CHECK_FALSE(LabelSelector::parse("app=web,tier=back").matches(labels));
  CHECK_FALSE(LabelSelector::parse("app=web").matches(json()));
  // Gt and Lt compare integers; a label absent or not an integer matches neither
  // (k8s.io/apimachinery pkg/labels/selector.go Requirement.Matches).
  json ranks = {{"rank", "12"}, {"name", "x1"}};
  CHECK(LabelSelector::parse("rank>3").matches(ranks));  // as integers, not as text
  CHECK(LabelSelector::parse("rank < 13").matches(ranks));
  CHECK_FALSE(LabelSelector::parse("rank>12").matches(ranks));
  CHECK_FALSE(LabelSelector::parse("name>0").matches(ranks));
  CHECK_FALSE(LabelSelector::parse("missing<100").matches(ranks));
}

TEST_CASE("label selector syntax errors are 400 BadRequest", "[kubesim][selector]") {
  for (const char* bad : {"app in web", "a b c=d", "app=(x", "=x", "rank>=1", "rank>a", "rank<", "rank>-1",
                          "app=-web", "app in (web-)"}) {
    INFO(bad);
    try {
      LabelSelector::parse(bad);
      FAIL("accepted");
    } catch (const kubesim::StatusError& e) {
      CHECK(e.code == 400);
      CHECK(e.reason == "BadRequest");
    }
  }
}

TEST_CASE("field selectors match nested fields with =, == and !=", "[kubesim][selector]") {
  json pod = {{"metadata", {{"name", "p"}, {"namespace", "ns"}}},
              {"spec", {{"nodeName", "n1"}}},
              {"status", {{"phase", "Running"}}}};
  CHECK(FieldSelector::parse("status.phase=Running").matches(pod));
  CHECK(FieldSelector::parse("status.phase==Running,spec.nodeName=n1").matches(pod));
  CHECK_FALSE(FieldSelector::parse("status.phase!=Running").matches(pod));
  CHECK(FieldSelector::parse("spec.nodeName!=").matches(pod));  // scheduled pods
  CHECK_FALSE(FieldSelector::parse("metadata.name=q").matches(pod));
  CHECK(FieldSelector::parse("metadata.namespace=ns").matches(pod));
  CHECK_THROWS_AS(FieldSelector::parse("status.phase"), kubesim::StatusError);
}
