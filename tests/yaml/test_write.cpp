// JSON -> YAML: one quoting rule, kubectl's. A string is quoted exactly when reading it back
// would not give that string; kubectl (go-yaml v2's encoder behind `kubectl create ...
// --dry-run=client -o yaml`) is the judge where it is installed.
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "core/errors.h"
#include "support/yaml_judges.h"
#include "yaml/read.h"
#include "yaml/scalar.h"
#include "yaml/write.h"

using nlohmann::json;
using namespace trainctl::testing;
using trainctl::yaml::parse;
using trainctl::yaml::pyyaml_reads_plain_differently;
using trainctl::yaml::parse_all;
using trainctl::yaml::to_yaml;
using trainctl::yaml::to_yaml_stream;

namespace {

// Strings that a careless writer gets wrong: words and numbers of YAML 1.1, timestamps, base
// 60, indicators, white space, line breaks, escapes, unicode.
const std::vector<std::string> kTricky = {"yes",
                                          "Yes",
                                          "no",
                                          "on",
                                          "OFF",
                                          "y",
                                          "N",
                                          "true",
                                          "False",
                                          "null",
                                          "Null",
                                          "~",
                                          "",
                                          "0x1F",
                                          "0X1F",
                                          "0o17",
                                          "017",
                                          "08",
                                          "0b101",
                                          "1e3",
                                          "1E3",
                                          ".5",
                                          "1.",
                                          "+1",
                                          "-1",
                                          "1_000",
                                          ".inf",
                                          "-.Inf",
                                          ".NaN",
                                          "1:20",
                                          "-3:25:45",
                                          "2024-05-01",
                                          "2024-05-01T10:00:00Z",
                                          "2001-12-14 21:59:43.10",
                                          "2Gi",
                                          "500m",
                                          "1.2.3",
                                          "-c",
                                          "1e400",
                                          "2024-02-30",
                                          "1:60",
                                          "<<",
                                          " lead",
                                          "trail ",
                                          "a: b",
                                          "a:b",
                                          "a #b",
                                          "#a",
                                          ":",
                                          "a:",
                                          "- a",
                                          "-",
                                          "?",
                                          "? a",
                                          "!tag",
                                          "&a",
                                          "*a",
                                          "%x",
                                          "@x",
                                          "`x",
                                          "|",
                                          ">",
                                          "[a]",
                                          "{a}",
                                          "a, b",
                                          "'",
                                          "\"",
                                          "\\",
                                          "it's",
                                          "multi\nline",
                                          "multi\nline\n",
                                          "\ttab",
                                          "bell\x07",
                                          "\x1b[31m",
                                          "é",
                                          "训练",
                                          "\u2028",
                                          "\ufeff",
                                          "a\r\nb",
                                          "   ",
                                          "---",
                                          "...",
                                          "a\\nb"};

std::string run(const std::string& cmd) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd.c_str(), "r"), pclose);
  REQUIRE(pipe);
  std::string out;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, pipe.get())) > 0;) out.append(buf, n);
  return out;
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The text after "<indent><key>: " on the line of `key` in a YAML document, or "?" when absent.
std::string value_text(const std::string& doc, const std::string& key_text) {
  const std::string marker = "\n" + key_text + ": ";
  const size_t at = ("\n" + doc).find(marker);
  if (at == std::string::npos) return "?";
  const size_t start = at + marker.size() - 1;
  return doc.substr(start, doc.find('\n', start) - start);
}

}  // namespace

TEST_CASE("JSON -> YAML -> JSON gives back every tricky string, as value and as key", "[yaml][write]") {
  for (const auto& s : kTricky) {
    INFO(json(s).dump());
    const json value = {{"k", s}, {"list", {s, 1, s}}};
    const std::string text = to_yaml(value);
    INFO(text);
    CHECK(parse(text) == value);
    if (s.empty() || s == "~" || s == "null" || s == "Null") continue;  // fine keys, yet tested below
    const json keyed = {{s, s}};
    CHECK(parse(to_yaml(keyed)) == keyed);
  }
  for (const char* key : {"", "~", "null", "Null", "<<"})
    CHECK(parse(to_yaml(json{{key, 1}})) == json{{key, 1}});
}

TEST_CASE("numbers, booleans, null and empty collections read back as themselves", "[yaml][write]") {
  const json value = {{"i", 42},
                      {"neg", -7},
                      {"big", UINT64_MAX},
                      {"f", 1.5},
                      {"tiny", 1e-7},
                      {"b", false},
                      {"n", nullptr},
                      {"m", json::object()},
                      {"l", json::array()},
                      {"nested", {{"x", {{"y", {1, "2", {{"z", true}}}}}}}}};
  CHECK(parse(to_yaml(value)) == value);
  const nlohmann::ordered_json ordered = {{"zeta", 1}, {"alpha", "on"}};
  CHECK(to_yaml(ordered) == "zeta: 1\nalpha: \"on\"\n");  // key order kept
}

TEST_CASE("the quoting decisions, by hand against kubectl create configmap -o yaml", "[yaml][write]") {
  // Each line as `kubectl create configmap x --dry-run=client -o yaml --from-literal=K=V` of
  // kubectl 1.33 prints it (go-yaml picks '' or a | block where yaml-cpp writes ""), except
  // "<<" and "2024-02-30", which go-yaml writes plain and PyYAML cannot read plain (a merge
  // key, a date that does not exist): those are quoted.
  const nlohmann::ordered_json data = {
      {"a", "2Gi"},   {"b", "2"},    {"c", "yes"},   {"d", "0x1F"}, {"e", "2024-05-01T10:00:00Z"},
      {"f", "1:20"},  {"g", "-c"},   {"h", ""},      {"i", "0X1F"}, {"j", "0b101"},
      {"k", "08"},    {"l", ".5_0"}, {"m", "1e400"}, {"q", "<<"},   {"s", "2024-02-30"},
      {"t", "1_000"}, {"u", "~"},    {"w", "nULL"},  {"x", ".NaN"}, {"y", "1:60"}};
  CHECK(
      to_yaml(data) ==
      "a: 2Gi\nb: \"2\"\nc: \"yes\"\nd: \"0x1F\"\ne: \"2024-05-01T10:00:00Z\"\nf: \"1:20\"\ng: -c\nh: \"\"\n"
      "i: \"0X1F\"\nj: \"0b101\"\nk: \"08\"\nl: \".5_0\"\nm: 1e400\nq: \"<<\"\ns: \"2024-02-30\"\nt: \"1_000\"\n"
      "u: \"~\"\nw: nULL\nx: \".NaN\"\n\"y\": 1:60\n");
}

TEST_CASE("a string is quoted where kubectl quotes it (kubectl as the judge)", "[yaml][write][oracle]") {
  if (!have_kubectl()) return;
  std::string cmd = "kubectl create configmap x --dry-run=client -o yaml";
  nlohmann::ordered_json data = nlohmann::ordered_json::object();
  std::vector<std::string> keys;
  for (size_t i = 0; i < kTricky.size(); ++i) {
    if (kTricky[i].find('\n') != std::string::npos || kTricky[i].find('\r') != std::string::npos) continue;
    const std::string key = "k" + std::to_string(1000 + i);  // same length: kubectl sorts keys
    keys.push_back(key);
    data[key] = kTricky[i];
    cmd += " --from-literal=" + shell_quote(key + "=" + kTricky[i]);
  }
  // Keys: configmap keys may hold [-._a-zA-Z0-9] only.
  for (const char* key :
       {"yes", "n", "on", "y", "1", "0x1F", "1e3", ".5", "08", "2024-05-01", "1_000", "NULL"}) {
    keys.push_back(key);
    data[key] = "v";
    cmd += " --from-literal=" + std::string(key) + "=v";
  }
  const std::string theirs = run(cmd + " 2>&1");
  const std::string ours = to_yaml(nlohmann::ordered_json{{"data", data}});
  INFO(theirs);
  for (const auto& key : keys) {
    const std::string value = data[key];
    INFO("key " << key << " value " << json(value).dump());
    const std::string k = value == "v" ? key : "  " + key;  // value rows: find by key
    if (value == "v") {
      // The key row: quoted or not, the same in both.
      const bool kubectl_quoted = theirs.find("\n  \"" + key + "\": v\n") != std::string::npos;
      const bool kubectl_plain = theirs.find("\n  " + key + ": v\n") != std::string::npos;
      REQUIRE(kubectl_quoted != kubectl_plain);
      CHECK((ours.find("\n  \"" + key + "\": v\n") != std::string::npos) == kubectl_quoted);
      continue;
    }
    const std::string kubectl_text = value_text(theirs, k);
    const std::string our_text = value_text(ours, k);
    REQUIRE(kubectl_text != "?");
    // go-yaml writes a string double-quoted when it would not read back as that string (or
    // holds characters it must escape), plain when it may, and single-quoted where its
    // emitter cannot write it plain; yaml-cpp writes double quotes where go-yaml writes single.
    // Where go-yaml quotes and yaml-cpp does not ("---", "a, b"), the readers below judge.
    if (kubectl_text == value && !pyyaml_reads_plain_differently(value)) CHECK(our_text == value);
    if (kubectl_text.front() == '"') CHECK(our_text.front() == '"');
  }
  // Every value, however written, reads back as itself in kubectl and in PyYAML.
  const nlohmann::ordered_json cm = {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "x"}}},
                                     {"data", data}};
  const auto read = kubectl_read_all(to_yaml(cm));
  REQUIRE(read.size() == 1);
  CHECK(read[0]["data"] == json(data));
  if (have_pyyaml()) CHECK(pyyaml_read_all(to_yaml(cm)) == std::vector<json>{json(cm)});
}

TEST_CASE("a stream separates documents with --- and reads back", "[yaml][write]") {
  const std::string s = to_yaml_stream({json{{"a", 1}}, json{{"b", json::array({1, "x"})}}});
  CHECK(s == "a: 1\n---\nb:\n  - 1\n  - x\n");
  CHECK(parse_all(s) == std::vector<json>{json{{"a", 1}}, json{{"b", json::array({1, "x"})}}});
}

namespace {

std::string utf8(char32_t cp) {
  std::string out;
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
  return out;
}

// Every code point YAML does not allow in a stream or reads as a line break or white space
// (C0, DEL, C1 with NEL, NBSP, U+2028/2029, BOM), the edges of the ranges it allows, and some
// printable ones, each alone and in the places where a reader treats it differently: at the
// start, in the middle, at the end, next to spaces, after ": " and " #".
std::vector<std::string> hostile_corpus() {
  std::vector<char32_t> points;
  for (char32_t c = 0; c < 0x20; ++c) points.push_back(c);
  for (char32_t c = 0x7F; c <= 0xA0; ++c) points.push_back(c);
  for (char32_t c : {0x2028, 0x2029, 0xFEFF, 0xD7FF, 0xE000, 0xFFFD, 0x10000, 0x1F600, 0x10FFFD, 0x3000, 0x1680,
                     0x200B, 0xE9, 0x8BAD})
    points.push_back(c);
  std::vector<std::string> out(kTricky.begin(), kTricky.end());
  for (char32_t c : points) {
    const std::string x = utf8(c);
    for (const std::string& v : {x, "a" + x + "b", x + "a", "a" + x, "a " + x + " b", " " + x, x + " ", x + x,
                                 "a:" + x + "b", "k: " + x, "a #" + x, "- " + x, x + "\n" + x, "\"" + x + "'"})
      out.push_back(v);
  }
  out.push_back("=");
  out.push_back("line1\r\nline2\r\n\r\n");
  out.push_back("a\r");
  out.push_back("\r\na");
  out.push_back("a\xc2\x85 b");  // NEL then a space: a plain folded scalar loses the space
  out.push_back("a \xe2\x80\xa8 b");
  return out;
}

}  // namespace

// What kubectl and PyYAML, parsers that share nothing with yaml-cpp, read from our YAML.
TEST_CASE("every hostile value reads back byte for byte in kubectl and PyYAML", "[yaml][write][oracle]") {
  const auto corpus = hostile_corpus();
  // One ConfigMap per value (data keys may be anything to a parser), the value also as a key.
  std::vector<json> docs;
  for (size_t i = 0; i < corpus.size(); ++i)
    docs.push_back({{"apiVersion", "v1"},
                    {"kind", "ConfigMap"},
                    {"metadata", {{"name", "c" + std::to_string(i)}}},
                    {"data", {{"value", corpus[i]}, {corpus[i].empty() ? "empty" : corpus[i], "key"}}}});
  const std::string stream = to_yaml_stream(docs);
  for (size_t i = 0; i < corpus.size(); ++i) {
    const std::string one = to_yaml(docs[i]);
    INFO(json(corpus[i]).dump() << " written as:\n" << one);
    for (char c : one) {
      const auto b = static_cast<unsigned char>(c);
      CHECK((b == '\n' || (b >= 0x20 && b < 0x7F) || b >= 0xC0 || (b & 0xC0) == 0x80));  // no raw C0/DEL
    }
    CHECK(one.find("\xc2\x85") == std::string::npos);      // NEL
    CHECK(one.find("\xe2\x80\xa8") == std::string::npos);  // LINE SEPARATOR
    CHECK(one.find("\xe2\x80\xa9") == std::string::npos);  // PARAGRAPH SEPARATOR
  }
  if (have_pyyaml()) {
    const auto read = pyyaml_read_all(stream);
    REQUIRE(read.size() == docs.size());
    for (size_t i = 0; i < docs.size(); ++i) {
      INFO("PyYAML, value " << json(corpus[i]).dump() << " written as:\n" << to_yaml(docs[i]));
      CHECK(read[i] == docs[i]);
    }
  }
  for (const std::string& kubectl : installed_kubectls()) {
    const auto read = kubectl_read_all(stream, kubectl);
    REQUIRE(read.size() == docs.size());
    for (size_t i = 0; i < docs.size(); ++i) {
      INFO(kubectl << ", value " << json(corpus[i]).dump() << " written as:\n" << to_yaml(docs[i]));
      CHECK(read[i] == docs[i]);
    }
  }
  if (installed_kubectls().empty()) have_kubectl();  // fails under CI=true
}

TEST_CASE("text YAML cannot carry is refused, not changed", "[yaml][write]") {
  for (const std::string bad : {"\xff", "a\xc3", "\xed\xa0\x80", "\xc0\xaf", "x\xef\xbf\xbe", "\xef\xbf\xbf",
                                "\xef\xb7\x90", "\xf4\x8f\xbf\xbf"}) {
    INFO(json(json::binary_t(std::vector<uint8_t>(bad.begin(), bad.end()))).dump());
    CHECK_THROWS_AS(to_yaml(json{{"k", bad}}), trainctl::Error);
    CHECK_THROWS_AS(to_yaml(json{{bad, "v"}}), trainctl::Error);
  }
}
