// The rendering engine: values enter templates JSON-encoded, YAML text becomes JSON objects,
// and JSON objects print as YAML that reads back identically.
#include <yaml-cpp/yaml.h>

#include <catch2/catch.hpp>

#include "core/errors.h"
#include "yaml/write.h"
#include "render/render.h"

using namespace trainctl;
using nlohmann::json;

TEST_CASE("strings and numbers enter templates JSON-encoded", "[render]") {
  json values = {{"s", "a \"b\"\n"}, {"n", 3}, {"f", 1.5}, {"t", true}};
  CHECK(render::render_text("t", "{{s}}|{{n}}|{{f}}|{{#t}}yes{{/t}}", values) ==
        "\"a \\\"b\\\"\\n\"|3|1.5|yes");
}

TEST_CASE("null and false skip sections; lists repeat them; _json keys insert JSON", "[render]") {
  json values = {{"absent", nullptr},
                 {"off", false},
                 {"items", {{{"k", "a"}}, {{"k", "b"}}}},
                 {"obj_json", {{"x", {1, 2}}, {"y", "z"}}},
                 {"empty", json::array()}};
  const std::string tmpl =
      "{{#absent}}A{{/absent}}{{#off}}O{{/off}}{{#empty}}E{{/empty}}{{#items}}[{{k}}]{{/"
      "items}}{{absent}}{{obj_json}}";
  CHECK(render::render_text("t", tmpl, values) == "[\"a\"][\"b\"]{\"x\":[1,2],\"y\":\"z\"}");
}

TEST_CASE("a value never re-enters the template engine", "[render]") {
  json values = {{"v", "{{w}} {{#w}}x{{/w}} {{=<% %>=}}"}, {"w", "SECRET"}};
  auto objs = render::render_objects("t", "a: {{v}}\n", values);
  REQUIRE(objs.size() == 1);
  CHECK(objs[0]["a"] == "{{w}} {{#w}}x{{/w}} {{=<% %>=}}");
}

TEST_CASE("a broken template is an error naming it", "[render]") {
  CHECK_THROWS_WITH(render::render_text("pytorch/job.yaml", "{{#open}}", json::object()),
                    Catch::StartsWith("template pytorch/job.yaml: "));
  CHECK_THROWS_WITH(render::parse_yaml_stream("mpi/job.yaml", "a: [1, 2\nb: {"),
                    Catch::StartsWith("template mpi/job.yaml did not render to valid YAML"));
}

TEST_CASE("YAML to JSON: quoted scalars are strings, plain ones typed, nulls dropped", "[render]") {
  auto docs =
      render::parse_yaml_stream("t",
                                "a: \"1\"\nb: 1\nc: true\nd: \"true\"\ne: 1.5\nf:\ng: ~\nh: [x, \"\"]\n"
                                "i: {}\nj: 0x1F\nk: -7\nl: text\n---\n---\nsecond: doc\n");
  REQUIRE(docs.size() == 2);  // the empty document is dropped
  CHECK(docs[0] == json::parse(R"({"a": "1", "b": 1, "c": true, "d": "true", "e": 1.5, "h": ["x", ""],
                                   "i": {}, "j": 31, "k": -7, "l": "text"})"));
  CHECK(docs[1] == json{{"second", "doc"}});
}

TEST_CASE("a template's plain scalars read as kubectl reads them", "[render]") {
  // The renderer had its own YAML 1.2 reader: 017 was 17 and yes, on, 0o17, 0X1F, 1_000 were
  // strings. kubectl applies the text through sigs.k8s.io/yaml (go-yaml v2 resolve.go):
  // ParseInt base 0 after removing '_', and the YAML 1.1 booleans.
  auto docs = render::parse_yaml_stream(
      "t", "octal: 017\nyes_: yes\non_: on\no: 0o17\nhex: 0X1F\nsep: 1_000\nexp: 1e3\nstamp: 2024-05-01\n");
  REQUIRE(docs.size() == 1);
  CHECK(docs[0] == json{{"octal", 15}, {"yes_", true}, {"on_", true}, {"o", 15}, {"hex", 31},
                        {"sep", 1000},  {"exp", 1000},  {"stamp", "2024-05-01"}});
  CHECK(docs[0]["exp"].is_number_integer());  // encoding/json writes float64(1000) as 1000
}

TEST_CASE("hostile values survive template -> YAML -> JSON byte for byte", "[render][hostile]") {
  std::string big(10 * 1024, 'x');
  for (size_t i = 0; i < big.size(); i += 97) big[i] = '\n';
  const std::vector<std::string> values = {"it's \"quoted\"",
                                           "multi\nline\n",
                                           "key: value",
                                           "{{x}}",
                                           "# hash",
                                           "ünï 😀 \u2028 \u0085 \ufeff",
                                           "\x01\x7f",
                                           "",
                                           " pad ",
                                           "- dash",
                                           "true",
                                           "123",
                                           "null",
                                           "~",
                                           big};
  for (const auto& v : values) {
    INFO(json(v).dump());
    auto objs = render::render_objects("t", "list:\n- name: {{v}}\n  inline: [{{v}}, {{v}}]\nkey: {{v}}\n",
                                       {{"v", v}});
    REQUIRE(objs.size() == 1);
    CHECK(objs[0]["list"][0]["name"] == v);
    CHECK(objs[0]["list"][0]["inline"] == json::array({v, v}));
    CHECK(objs[0]["key"] == v);
    CHECK(render::parse_yaml_stream("emit", yaml::to_yaml(objs[0]))[0] == objs[0]);
  }
}

TEST_CASE("a dry-run stream reads back as the rendered objects", "[render][emit]") {
  // Strings that look like other types survive: to_yaml_stream quotes them as kubectl would.
  const std::vector<json> objs = render::render_objects(
      "t", "a: {{a}}\nb: {{b}}\nc: {{c}}\n---\nd: {{d}}\n",
      {{"a", "0x1F"}, {"b", "yes"}, {"c", "2024-05-01T10:00:00Z"}, {"d", "017"}});
  REQUIRE(objs.size() == 2);
  CHECK(objs[0] == json{{"a", "0x1F"}, {"b", "yes"}, {"c", "2024-05-01T10:00:00Z"}});
  CHECK(render::parse_yaml_stream("dry-run", yaml::to_yaml_stream(objs)) == objs);
}
