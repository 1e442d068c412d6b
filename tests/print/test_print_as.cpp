// print_as: the printer of the -o format asked for, and the -o help built from the formats.
#include <catch2/catch.hpp>
#include <sstream>

#include "core/errors.h"
#include "print/print_as.h"

using trainctl::print::OutputFormat;
using trainctl::print::Printers;

namespace {

std::string print(OutputFormat format, const Printers& p) {
  std::ostringstream out;
  trainctl::print::print_as(format, p, out);
  return out.str();
}

}  // namespace

TEST_CASE("print_as picks the printer of the format") {
  Printers p;
  p.human = [](std::ostream& out) { out << "TABLE\n"; };
  p.document = [] { return nlohmann::ordered_json{{"b", 1}, {"a", "x"}}; };
  p.names = [] { return std::string("pytorchjob/a\n"); };
  CHECK(print(OutputFormat::Table, p) == "TABLE\n");
  CHECK(print(OutputFormat::Wide, p) == "TABLE\n");
  CHECK(print(OutputFormat::Json, p) == "{\n  \"b\": 1,\n  \"a\": \"x\"\n}\n");
  CHECK(print(OutputFormat::Yaml, p) == "b: 1\na: x\n");
  CHECK(print(OutputFormat::Name, p) == "pytorchjob/a\n");
  // A streamed printer wins over the document for json and yaml.
  p.stream = [](std::ostream& out, OutputFormat f) { out << (f == OutputFormat::Json ? "J\n" : "Y\n"); };
  CHECK(print(OutputFormat::Json, p) == "J\n");
  CHECK(print(OutputFormat::Yaml, p) == "Y\n");
}

TEST_CASE("a format the command has no printer for is an error, not empty output") {
  Printers p;
  p.human = [](std::ostream& out) { out << "TABLE\n"; };
  CHECK_THROWS_AS(print(OutputFormat::Name, p), trainctl::Error);
  CHECK_THROWS_AS(print(OutputFormat::Json, p), trainctl::Error);
}

TEST_CASE("the -o help lists the formats, the first as the default") {
  constexpr OutputFormat kAll[] = {OutputFormat::Wide, OutputFormat::Json, OutputFormat::Yaml, OutputFormat::Name};
  CHECK(trainctl::print::output_help(kAll) == "Output format: wide (default), json, yaml or name");
  constexpr OutputFormat kTwo[] = {OutputFormat::Yaml, OutputFormat::Json};
  CHECK(trainctl::print::output_help(kTwo) == "Output format: yaml (default) or json");
}
