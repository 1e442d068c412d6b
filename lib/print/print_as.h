// One entry for -o: a command names the printer of each format it accepts, print_as picks
// the one the user asked for.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "print/output.h"

namespace trainctl::print {

struct Printers {
  // "" and wide: the human view (a table, a details block).
  std::function<void(std::ostream&)> human;
  // json and yaml: the document, printed by to_json / to_yaml ...
  std::function<nlohmann::ordered_json()> document;
  // ... or, for a result too large to hold as one document, written piece by piece as
  // to_json / to_yaml would print it (format is Json or Yaml).
  std::function<void(std::ostream&, OutputFormat)> stream;
  // name: "kind/NAME" lines.
  std::function<std::string()> names;
};

// Prints with the printer of `format`, which parse_output has checked the command accepts;
// a format without a printer is an Error (a command that accepts what it cannot print).
void print_as(OutputFormat format, const Printers& printers, std::ostream& out);

}  // namespace trainctl::print
