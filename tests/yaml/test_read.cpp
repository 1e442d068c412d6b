// YAML text -> JSON as sigs.k8s.io/yaml YAMLToJSON (yaml.go v1.4.0) gives it to kubectl and
// kube-apiserver: go-yaml v2 decoding into interface{} (goyaml.v2/decode.go), then
// convertToJSONableObject and encoding/json.
#include <catch2/catch.hpp>
#include <cstdint>

#include "core/errors.h"
#include "yaml/read.h"

using nlohmann::json;
using trainctl::yaml::parse;
using trainctl::yaml::parse_all;
using trainctl::yaml::ParseError;

TEST_CASE("a manifest reads as kubectl reads it", "[yaml][read]") {
  const json j = parse(R"(
a: 1
b: -42
c: 0x1F
d: 0o17
e: 017
f: 1.5
g: .5
h: true
i: False
j: ~
k: null
l:
m: yes
nn: 2Gi
o: 500m
p: 1.2.3
q: "1"
r: '42'
s: "true"
t: !!str 7
u: 9223372036854775808
v: |
  block
w: 2024-05-01T10:00:00Z
x: 1_000
yy: 'yes'
z: off
)");
  CHECK(j == json::parse(R"({
    "a": 1, "b": -42, "c": 31, "d": 15, "e": 15, "f": 1.5, "g": 0.5, "h": true, "i": false,
    "j": null, "k": null, "l": null, "m": true, "nn": "2Gi", "o": "500m", "p": "1.2.3", "q": "1",
    "r": "42", "s": "true", "t": "7", "u": 9223372036854775808, "v": "block\n",
    "w": "2024-05-01T10:00:00Z", "x": 1000, "yy": "yes", "z": false})"));
  // e: a leading 0 is octal (ParseInt base 0); m: yes is a YAML 1.1 boolean to go-yaml v2;
  // w: a timestamp decodes into interface{} as its text.
  CHECK(j["u"].is_number_unsigned());
}

TEST_CASE("a float is the JSON number encoding/json writes for it", "[yaml][read]") {
  // encoding/json floatEncoder writes float64(1000) as "1000": kube-apiserver reads an integer.
  const json j = parse("a: 1e3\nb: 1.0\nc: 1.5\nd: 1e21\ne: -2.0\nf: 1e-7\n");
  CHECK(j["a"] == 1000);
  CHECK(j["a"].is_number_integer());
  CHECK(j["b"].is_number_integer());
  CHECK(j["c"].is_number_float());
  CHECK(j["d"].is_number_float());  // 1e+21: written with an exponent
  CHECK(j["e"] == -2);
  CHECK(j["e"].is_number_integer());
  CHECK(j["f"].is_number_float());
}

TEST_CASE(".inf and .nan have no JSON form", "[yaml][read]") {
  // yamlToJSONTarget: json.Marshal fails with "json: unsupported value: +Inf".
  CHECK_THROWS_AS(parse("a: .inf\n"), ParseError);
  CHECK_THROWS_WITH(parse("a:\n  b: -.Inf\n", "job.yaml"),
                    Catch::StartsWith("job.yaml: line 2, column 6: `-.Inf`"));
  CHECK_THROWS_AS(parse("a: .nan\n"), ParseError);
  CHECK(parse("a: '.inf'\n")["a"] == ".inf");
}

TEST_CASE("map keys become strings as convertToJSONableObject makes them", "[yaml][read]") {
  const json j = parse("1: a\n0x10: b\nyes: c\n1.5: d\n1e6: e\n\"x\": f\n-0: g\nnull_: h\n");
  CHECK(j == json{{"1", "a"},
                  {"16", "b"},
                  {"true", "c"},
                  {"1.5", "d"},
                  {"1e+06", "e"},
                  {"x", "f"},
                  {"0", "g"},
                  {"null_", "h"}});
  CHECK(parse("off: x\n0.1: w\n1e3: z\n") == json{{"false", "x"}, {"0.1", "w"}, {"1000", "z"}});
  // y and n are YAML 1.1 booleans too, as keys and as values.
  CHECK(parse("n: y\n") == json{{"false", true}});
  // FormatFloat(f, 'g', -1, 32): the float32 digits.
  CHECK(parse("3.14159265358979: pi\n") == json{{"3.1415927", "pi"}});
  // A double beyond float32's range becomes +Inf there, so its key is ".inf".
  CHECK(parse("5.5e65: big\n-1e39: small\n") == json{{".inf", "big"}, {"-.inf", "small"}});
  // A null key has no string form; go-yaml refuses list and map keys.
  CHECK_THROWS_AS(parse("~: x\n"), ParseError);
  CHECK_THROWS_AS(parse("? [1, 2]\n: x\n"), ParseError);
  CHECK_THROWS_AS(parse("18446744073709551615: x\n"), ParseError);  // uint64 key
  // A repeated key keeps its last value.
  CHECK(parse("a: 1\na: 2\n") == json{{"a", 2}});
}

TEST_CASE("explicit tags are honoured as go-yaml resolves them", "[yaml][read]") {
  const json j = parse(R"(
a: !!int "12"
b: !!float 1
c: !!str 12
d: !!bool yes
e: !!null ~
f: !!binary aGk=
g: !foo bar
h: ! 12
i: !!str
j: !!timestamp 2001-12-14
)");
  CHECK(j["a"] == 12);
  CHECK(j["b"] == 1);
  CHECK(j["c"] == "12");
  CHECK(j["d"] == true);
  CHECK(j["e"].is_null());
  CHECK(j["f"] == "hi");
  CHECK(j["g"] == "bar");
  CHECK(j["h"] == "12");
  CHECK(j["i"] == "");
  CHECK(j["j"] == "2001-12-14");
  CHECK_THROWS_WITH(parse("a: !!int abc\n"), Catch::Contains("cannot decode !!str as a !!int"));
  CHECK_THROWS_WITH(parse("a: !!bool 1\n"), Catch::Contains("cannot decode !!int as a !!bool"));
  CHECK_THROWS_WITH(parse("a: !!binary '#'\n"), Catch::Contains("invalid base64"));
}

TEST_CASE("<< merges maps at its place; of a list of maps the earlier win", "[yaml][read]") {
  const json j = parse(R"(
base: &base {a: 1, b: 2}
more: &more {b: 20, c: 30}
one: {<<: *base, b: 3}
before: {b: 3, <<: *base}
list: {<<: [*base, *more], d: 4}
)");
  CHECK(j["one"] == json{{"a", 1}, {"b", 3}});
  CHECK(j["before"] == json{{"a", 1}, {"b", 2}});  // go-yaml v2 sets the merged keys in order
  CHECK(j["list"] == json{{"a", 1}, {"b", 2}, {"c", 30}, {"d", 4}});
  CHECK(parse("a: {'<<': {x: 1}}\n") == json{{"a", {{"<<", {{"x", 1}}}}}});  // quoted: a key
  CHECK_THROWS_WITH(parse("a: {<<: 1}\n"), Catch::Contains("map merge requires map or sequence of maps"));
}

TEST_CASE("aliases are followed; one inside its own anchor, or a billion laughs, is an error",
          "[yaml][read]") {
  CHECK(parse("a: &x [1, 2]\nb: *x\n") == json{{"a", {1, 2}}, {"b", {1, 2}}});
  CHECK_THROWS_AS(parse("&a [*a, 1]\n"), ParseError);
  std::string laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  for (char c = 'b'; c <= 'i'; ++c) {
    const char prev = static_cast<char>(c - 1);
    laughs += std::string(1, c) + ": &" + c + " [*" + prev + ", *" + prev + ", *" + prev + ", *" + prev +
              ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + "]\n";
  }
  CHECK_THROWS_WITH(parse(laughs), Catch::Contains("excessive aliasing"));
}

TEST_CASE("a stream gives its non-empty documents", "[yaml][read]") {
  const auto docs = parse_all("---\na: 1\n---\n---\n# only a comment\n---\nb: 2\n...\n");
  REQUIRE(docs.size() == 2);
  CHECK(docs[0] == json{{"a", 1}});
  CHECK(docs[1] == json{{"b", 2}});
  CHECK(parse_all("").empty());
  CHECK(parse("").is_null());
  CHECK(parse("{\"json\": [1, \"two\", null, true]}") == json{{"json", {1, "two", nullptr, true}}});
}

TEST_CASE("malformed YAML is a ParseError (a ConfigError) with origin and position", "[yaml][read]") {
  try {
    parse("a: [1, 2\n", "job.yaml");
    FAIL("no error");
  } catch (const trainctl::ConfigError& e) {
    CHECK(std::string(e.what()).rfind("job.yaml: line 2, column 1: ", 0) == 0);
  }
  try {
    parse_all("a: 1\nb: {\n", "x.yaml");
    FAIL("no error");
  } catch (const ParseError& e) {
    CHECK(e.line() > 0);
    CHECK_FALSE(e.detail().empty());
  }
}

TEST_CASE("a stray ',' where a node should start is an error, not an endless stream", "[yaml][read]") {
  // yaml-cpp 0.7's LoadAll loops on these, allocating empty documents; go-yaml refuses them.
  for (const char* text : {",", ",a: ,\n", "- a\n,", "--- ,", "a: 1\n--- ,\n", "&x ,", "# c\n,"}) {
    INFO(text);
    CHECK_THROWS_WITH(parse_all(text, "t.yaml"), Catch::Contains("did not find expected node content"));
  }
  CHECK_THROWS_AS(parse(","), ParseError);  // yaml-cpp's Load took it for an empty document
  // A marker-heavy stream still reads.
  CHECK(parse_all("a: 1\n---\n...\n---\nb: 2\n---\n").size() == 2);
}
