#include "print/output.h"

#include "core/errors.h"

namespace trainctl::print {

std::string output_name(OutputFormat f) {
  switch (f) {
    case OutputFormat::Table:
      return "table";
    case OutputFormat::Wide:
      return "wide";
    case OutputFormat::Json:
      return "json";
    case OutputFormat::Yaml:
      return "yaml";
    case OutputFormat::Name:
      return "name";
  }
  return "";
}

OutputFormat parse_output(std::string_view text, std::span<const OutputFormat> allowed) {
  if (text.empty()) return OutputFormat::Table;
  for (auto a : allowed)
    if (text == output_name(a)) return a;
  std::string names;
  for (auto a : allowed) names += (names.empty() ? "" : "|") + output_name(a);
  throw UsageError("unknown output format \"" + std::string(text) + "\": use " + names);
}

std::string output_help(std::span<const OutputFormat> formats) {
  std::string help = "Output format: ";
  for (size_t i = 0; i < formats.size(); ++i) {
    if (i > 0) help += i + 1 == formats.size() ? " or " : ", ";
    help += output_name(formats[i]);
    if (i == 0) help += " (default)";
  }
  return help;
}

std::string to_json(const nlohmann::ordered_json& value) {
  return value.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace trainctl::print
