// -o/--output: which printer a command uses, and the JSON/YAML printers.
#pragma once

#include <initializer_list>
#include <span>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "yaml/write.h"

namespace trainctl::print {

enum class OutputFormat { Table, Wide, Json, Yaml, Name };

// Parses an -o value ("" = table). `allowed` lists the formats the command accepts;
// anything else throws UsageError naming them.
OutputFormat parse_output(std::string_view text, std::span<const OutputFormat> allowed);
inline OutputFormat parse_output(std::string_view text, std::initializer_list<OutputFormat> allowed) {
  return parse_output(text, std::span<const OutputFormat>(allowed.begin(), allowed.size()));
}
std::string output_name(OutputFormat f);
// The help of -o for those formats, the first being the default: "Output format: wide
// (default), json, yaml or name" (completion reads the values from it).
std::string output_help(std::span<const OutputFormat> formats);

// Pretty JSON (two-space indent) with a trailing newline. Non-ASCII stays UTF-8; control
// characters are escaped by the JSON encoder, so the output never carries raw escapes.
std::string to_json(const nlohmann::ordered_json& value);

// YAML of the JSON value with kubectl's quoting (yaml/write.h): maps keep their key order,
// strings that YAML would read as another type ("true", "1.0", "null", "") are quoted, and
// control characters are escaped. A document, with a trailing newline.
using yaml::to_yaml;

}  // namespace trainctl::print
