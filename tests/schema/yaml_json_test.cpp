// YAML 1.2 core schema resolution of the YAML to JSON converter.
#include "schema/yaml_json.h"

#include <catch2/catch.hpp>

#include "core/errors.h"

using trainctl::schema::parse_yaml;
using trainctl::schema::parse_yaml_documents;

TEST_CASE("plain scalars resolve to null, bool, int and float", "[schema][yaml]") {
  auto j = parse_yaml(R"(
a: 1
b: -42
c: 0x1F
d: 0o17
e: 1.5
f: .5
g: 1e3
h: true
i: False
j: ~
k: null
l:
m: yes
n: 2Gi
o: 500m
p: 1.2.3
q: "1"
r: '42'
s: "true"
t: !!str 7
u: 9223372036854775808
v: |
  block
)");
  CHECK(j["a"] == 1);
  CHECK(j["a"].is_number_integer());
  CHECK(j["b"] == -42);
  CHECK(j["c"] == 31);
  CHECK(j["d"] == 15);
  CHECK(j["e"].is_number_float());
  CHECK(j["e"] == 1.5);
  CHECK(j["f"] == 0.5);
  CHECK(j["g"].is_number_float());
  CHECK(j["g"] == 1000.0);
  CHECK(j["h"] == true);
  CHECK(j["i"] == false);
  CHECK(j["j"].is_null());
  CHECK(j["k"].is_null());
  CHECK(j["l"].is_null());
  CHECK(j["m"] == "yes");  // YAML 1.2: only true/false are booleans
  CHECK(j["n"] == "2Gi");
  CHECK(j["o"] == "500m");
  CHECK(j["p"] == "1.2.3");
  CHECK(j["q"] == "1");
  CHECK(j["r"] == "42");
  CHECK(j["s"] == "true");
  CHECK(j["t"] == "7");
  CHECK(j["u"].is_number_unsigned());
  CHECK(j["v"] == "block\n");
}

TEST_CASE("sequences, nested maps and flow style", "[schema][yaml]") {
  auto j = parse_yaml("spec: {ports: [{port: 80}, {port: '443'}], tags: [a, 'b']}");
  REQUIRE(j["spec"]["ports"].is_array());
  CHECK(j["spec"]["ports"][0]["port"] == 80);
  CHECK(j["spec"]["ports"][1]["port"] == "443");
  CHECK(j["spec"]["tags"] == nlohmann::json::array({"a", "b"}));
}

TEST_CASE("multi-document streams skip empty documents", "[schema][yaml]") {
  auto docs = parse_yaml_documents("---\na: 1\n---\n---\nb: 2\n");
  REQUIRE(docs.size() == 2);
  CHECK(docs[1]["b"] == 2);
}

TEST_CASE("malformed YAML is a ConfigError naming the origin", "[schema][yaml]") {
  try {
    parse_yaml("a: [1, 2\n", "job.yaml");
    FAIL("no error");
  } catch (const trainctl::ConfigError& e) {
    CHECK(std::string(e.what()).rfind("job.yaml: ", 0) == 0);
  }
}
