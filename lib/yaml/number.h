// The number rules of the YAML reader and of Go's encoding/json, for scalar.cpp and read.cpp.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace trainctl::yaml::detail {

// Go strconv.ParseInt(s, 0, 64) (an int64 json) or, failing that, ParseUint(s, 0, 64) (a
// uint64 json): optional sign (ParseInt only), then a 0b/0o/0x prefix, a leading 0 for octal,
// or decimal digits. `s` holds no underscores (the caller removed them).
std::optional<nlohmann::json> parse_go_integer(std::string_view s);

// Go strconv.ParseFloat(s, 64) of text that already has the float shape; nullopt on overflow
// (Go returns ErrRange, and the YAML reader then keeps the text as a string).
std::optional<double> parse_float(const std::string& s);

// Go's underscoreOK (strconv/atoi.go): '_' only between digits (or after a base prefix).
bool underscores_ok(std::string_view s);

// A finite double as the JSON number Go's encoding/json writes for it, read back: an integral
// value below 1e21 is written without fraction or exponent ("1000" for 1e3) and so reads as
// an integer; everything else stays a double.
nlohmann::json json_number(double f);

// strconv.FormatFloat(f, 'g', -1, 32) with Inf/NaN as .inf/-.inf/.nan: how sigs.k8s.io/yaml
// turns a float map key into a JSON object key ("1.5", "1e+06").
std::string float_key(double f);

// Whether go-yaml v2's parseTimestamp accepts the text (one of its allowedTimestampFormats).
bool is_timestamp(std::string_view s);

}  // namespace trainctl::yaml::detail
