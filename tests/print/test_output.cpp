#include <catch2/catch.hpp>

#include "core/errors.h"
#include "print/output.h"

using trainctl::print::OutputFormat;
using trainctl::print::parse_output;
using trainctl::print::to_json;
using trainctl::print::to_yaml;

TEST_CASE("parse_output accepts only the formats a command allows") {
  CHECK(parse_output("", {OutputFormat::Json}) == OutputFormat::Table);
  CHECK(parse_output("json", {OutputFormat::Json, OutputFormat::Yaml}) == OutputFormat::Json);
  CHECK(parse_output("yaml", {OutputFormat::Json, OutputFormat::Yaml}) == OutputFormat::Yaml);
  CHECK(parse_output("wide", {OutputFormat::Wide}) == OutputFormat::Wide);
  CHECK_THROWS_AS(parse_output("name", {OutputFormat::Json}), trainctl::UsageError);
  CHECK_THROWS_WITH(parse_output("xml", {OutputFormat::Json, OutputFormat::Yaml}),
                    Catch::Contains("json|yaml"));
}

TEST_CASE("to_json pretty-prints with a trailing newline and escapes control characters") {
  nlohmann::json v = {{"name", "a\x1b[31mb"}, {"n", 2}};
  std::string s = to_json(v);
  CHECK(s.back() == '\n');
  CHECK(s.find('\x1b') == std::string::npos);
  CHECK(s.find("\\u001b") != std::string::npos);
  CHECK(nlohmann::json::parse(s) == v);
}

TEST_CASE("to_yaml keeps order, quotes strings that would change type, and round-trips") {
  nlohmann::ordered_json v = nlohmann::ordered_json::object();
  v["name"] = "mnist";
  v["status"] = "true";
  v["duration"] = "57s";
  v["gpus"] = 3;
  v["version"] = "1.10";
  v["empty"] = "";
  v["chief"] = true;
  v["none"] = nullptr;
  v["list"] = {"a", "b"};
  std::string y = to_yaml(v);
  CHECK(y ==
        "name: mnist\n"
        "status: \"true\"\n"
        "duration: 57s\n"
        "gpus: 3\n"
        "version: \"1.10\"\n"
        "empty: \"\"\n"
        "chief: true\n"
        "none: ~\n"
        "list:\n"
        "  - a\n"
        "  - b\n");
}

TEST_CASE("to_yaml never writes a raw escape character") {
  nlohmann::json v = {{"name", "evil\x1b]0;title\x07"}};
  std::string y = to_yaml(v);
  CHECK(y.find('\x1b') == std::string::npos);
  CHECK(y.find('\x07') == std::string::npos);
}

TEST_CASE("to_yaml of an empty list and of unicode") {
  CHECK(to_yaml(nlohmann::json::array()) == "[]\n");
  std::string y = to_yaml(nlohmann::json{{"description", "训练数据"}});
  CHECK(y.find("description:") == 0);
}
