// kube/page_stream.h: pages and objects read with simdjson and built as nlohmann::json must
// be what nlohmann's own parser gives (values, number types, the last of repeated keys), be
// refused as it refuses them, and keep what a FieldSet keeps (kube/field_set.h).
#include <catch2/catch.hpp>

#include "core/errors.h"
#include "kube/field_set.h"
#include "kube/page_stream.h"

using nlohmann::json;
using trainctl::kube::FieldSet;
using trainctl::kube::parse_list_page;
using trainctl::kube::parse_object;

namespace {

// The type nlohmann gives each value, all the way down.
std::string types(const json& j) {
  std::string out = j.type_name();
  if (j.is_number_unsigned()) out = "unsigned";
  if (j.is_number_integer() && !j.is_number_unsigned()) out = "integer";
  if (j.is_structured()) {
    out += '(';
    for (const auto& v : j) out += types(v) + ',';
    out += ')';
  }
  return out;
}

}  // namespace

TEST_CASE("objects are built as nlohmann's parser builds them") {
  const char* docs[] = {
      R"({"a":1,"b":-1,"c":0,"d":18446744073709551615,"e":-9223372036854775808,"f":1.5,"g":-0.0,"h":1e300})",
      R"({"s":"plain","e":"tab\there \"quoted\" \\ \/ \u00e9 \ud83d\ude00 \u0000 end","u":"ünï 中文"})",
      R"({"x":[],"y":{},"z":[[1,[2,[3]]],{"k":null}],"t":true,"f":false,"n":null})",
      R"({"long key that passes sixteen bytes":"and a value longer than the small string buffer"})",
      R"(  {"spaces" : [ 1 , 2 ] }  )",
  };
  for (const char* doc : docs) {
    INFO(doc);
    const json mine = parse_object(doc, "GET x");
    const json theirs = json::parse(doc);
    CHECK(mine == theirs);
    CHECK(mine.dump() == theirs.dump());
    CHECK(types(mine) == types(theirs));
  }
  // The last of repeated keys wins, as in nlohmann.
  CHECK(parse_object(R"({"a":1,"a":2})", "GET x") == json::parse(R"({"a":1,"a":2})"));
}

TEST_CASE("an answer that is not an object, or not of the kind and name asked for, is an Error") {
  CHECK_THROWS_WITH(parse_object("[1,2,3]", "GET x"),
                    "the server answered GET x with a JSON array where an object was expected");
  CHECK_THROWS_WITH(parse_object(R"("a string")", "GET x"),
                    "the server answered GET x with a JSON string where an object was expected");
  CHECK_THROWS_WITH(parse_object("42", "GET x"),
                    "the server answered GET x with a JSON number where an object was expected");
  CHECK_THROWS_WITH(parse_object(R"({"kind":"PodList","items":[]})", "GET x"),
                    "the server answered GET x with a PodList where an object was expected");
  CHECK_THROWS_WITH(parse_object(R"({"kind":"Pod","metadata":{"name":"b"}})", "GET x", nullptr, "Pod", "a"),
                    "the server answered GET x with a Pod named \"b\" where a Pod named a was expected");
  CHECK_THROWS_WITH(
      parse_object(R"({"kind":"Service","metadata":{"name":"a"}})", "GET x", nullptr, "Pod", "a"),
      "the server answered GET x with a Service where a Pod named a was expected");
  // A kind left out is tolerated (the name is not).
  CHECK(parse_object(R"({"metadata":{"name":"a"}})", "GET x", nullptr, "Pod", "a")["metadata"]["name"] ==
        "a");
  CHECK_THROWS_WITH(parse_object(R"({"metadata":{}})", "GET x", nullptr, "Pod", "a"),
                    "the server answered GET x with an object without kind without metadata.name where a Pod "
                    "named a was expected");
}

TEST_CASE("what is not JSON is one Error naming the request") {
  const char* bad[] = {"<html>", "", "{", R"({"a":1)", R"({"a":1}})", R"({"a":01})", R"({"a":NaN})",
                       R"({'a':1})", R"({"a":1,})", "{\"a\":\"\xff\"}", R"({"a":1} // c)", "[1 2]"};
  for (const char* doc : bad) {
    INFO(doc);
    CHECK_THROWS_AS(json::parse(doc), json::parse_error);  // refused by nlohmann too
    try {
      parse_object(doc, "GET /api/v1/pods");
      FAIL("accepted");
    } catch (const trainctl::Error& e) {
      CHECK_THAT(e.what(), Catch::StartsWith("the server's answer to GET /api/v1/pods is not JSON ("));
    }
    CHECK_THROWS_AS(parse_list_page(doc, [](json&) {}, "GET x"), trainctl::Error);
  }
}

TEST_CASE("a body without room for the parser's padding is read all the same") {
  std::string body = R"({"items":[{"metadata":{"name":"a"}}],"metadata":{"continue":"c"}})";
  body.shrink_to_fit();
  std::vector<std::string> names;
  const auto info = parse_list_page(body, [&](json& item) { names.push_back(item["metadata"]["name"]); }, "GET x");
  CHECK(names == std::vector<std::string>{"a"});
  CHECK(info.continue_token == "c");
}

TEST_CASE("a list's items are handed over in order; other keys are passed over") {
  const std::string body =
      R"({"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"7"},"items":[{"n":1},{"n":3}],"x":1})";
  std::vector<int> seen;
  const auto info = parse_list_page(body, [&](json& item) { seen.push_back(item["n"]); }, "GET x");
  CHECK(seen == std::vector<int>{1, 3});
  CHECK(info.items == 2);
  CHECK(info.resource_version == "7");
  CHECK(info.continue_token.empty());
}

TEST_CASE("a page that is not a list of objects is an Error, before any item is handed over") {
  int seen = 0;
  auto page = [&](const std::string& body, std::string_view kind = {}) {
    parse_list_page(
        body, [&](json&) { ++seen; }, "GET x", nullptr, kind);
  };
  CHECK_THROWS_WITH(
      page(R"({"kind":"PodList","items":[{"n":1},2]})"),
      "the server answered GET x with a PodList holding a JSON number where a list was expected");
  CHECK_THROWS_WITH(page("[1,2,3]"), "the server answered GET x with a JSON array where a list was expected");
  CHECK_THROWS_WITH(page(R"({"kind":"Pod","metadata":{"name":"a"}})"),
                    "the server answered GET x with a Pod where a list was expected");
  CHECK_THROWS_WITH(page(R"({"kind":"NodeList","items":[]})", "PodList"),
                    "the server answered GET x with a NodeList where a PodList was expected");
  CHECK_THROWS_WITH(page(R"({"kind":"PodList","metadata":{}})"),
                    "the server answered GET x with a PodList without items where a list was expected");
  CHECK_THROWS_WITH(
      page("{}"), "the server answered GET x with an object without kind or items where a list was expected");
  CHECK(seen == 0);
  // What kube-apiserver sends: a kind of the resource's list (or List), items empty or null.
  CHECK_NOTHROW(page(R"({"kind":"PodList","items":null})", "PodList"));
  CHECK_NOTHROW(page(R"({"kind":"List","items":[]})", "PodList"));
  CHECK_NOTHROW(page(R"({"items":[]})", "PodList"));
}

TEST_CASE("a FieldSet keeps its paths, through arrays, and whole what a path ends on") {
  const json pod = json::parse(R"({
    "metadata": {"name": "p", "uid": "u", "labels": {"a.b/c": "1"}},
    "spec": {"nodeName": "n", "containers": [{"name": "c1", "image": "i", "env": [{"name": "X"}],
                                             "resources": {"limits": {"nvidia.com/gpu": 1}, "requests": {"cpu": "1"}}},
                                            {"name": "c2", "image": "j"}]},
    "status": {"phase": "Running", "conditions": [{"type": "Ready"}]}
  })");
  const FieldSet fields = {"metadata.name", "metadata.labels", "spec.containers.name",
                           "spec.containers.resources.limits", "status"};
  const json part = parse_object(pod.dump(), "GET x", &fields);
  CHECK(part == json::parse(R"({
    "metadata": {"name": "p", "labels": {"a.b/c": "1"}},
    "spec": {"containers": [{"name": "c1", "resources": {"limits": {"nvidia.com/gpu": 1}}}, {"name": "c2"}]},
    "status": {"phase": "Running", "conditions": [{"type": "Ready"}]}
  })"));

  // A path that ends keeps all below it, whichever comes first; keys no command reads (a
  // container's env) are still left out below a kept path.
  FieldSet wide = {"spec.containers.name", "spec"};
  FieldSet wide2 = {"spec", "spec.containers.name"};
  const json expected = json::parse(R"({"spec": {"nodeName": "n", "containers": [
      {"name": "c1", "image": "i", "resources": {"limits": {"nvidia.com/gpu": 1}, "requests": {"cpu": "1"}}},
      {"name": "c2", "image": "j"}]}})");
  CHECK(parse_object(pod.dump(), "GET x", &wide) == expected);
  CHECK(parse_object(pod.dump(), "GET x", &wide2) == expected);

  // Keys holding dots are named key by key.
  FieldSet label;
  label.add({"metadata", "labels", "a.b/c"});
  CHECK(parse_object(pod.dump(), "GET x", &label) == json::parse(R"({"metadata": {"labels": {"a.b/c": "1"}}})"));

  // In a list, each item is built with the read's fields.
  const std::string page = json{{"items", json::array({pod, pod})}}.dump();
  int n = 0;
  parse_list_page(
      page, [&](json& item) { CHECK(item == part); ++n; }, "GET x", &fields);
  CHECK(n == 2);
}
