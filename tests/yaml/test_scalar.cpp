// The plain scalar rules of kubectl's YAML reader, row by row. Every row was checked by hand
// against go-yaml v2 as sigs.k8s.io/yaml v1.4.0 vendors it (goyaml.v2/resolve.go: resolveTable,
// resolveMap, resolve(), yamlStyleFloat, parseTimestamp/allowedTimestampFormats) and the Go
// strconv functions it calls (ParseInt/ParseUint base 0, ParseFloat); the comment of a row
// names the rule that decides it.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "support/yaml_judges.h"
#include "yaml/scalar.h"
#include "yaml/write.h"

using nlohmann::json;
using trainctl::yaml::resolve_plain;
using trainctl::yaml::ScalarKind;

namespace {

struct Row {
  const char* text;
  ScalarKind kind;
  json value;  // for Float rows a double; NaN rows are checked with isnan
  const char* rule;
};

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr auto Null = ScalarKind::Null;
constexpr auto Bool = ScalarKind::Bool;
constexpr auto Int = ScalarKind::Int;
constexpr auto Float = ScalarKind::Float;
constexpr auto Stamp = ScalarKind::Timestamp;
constexpr auto Str = ScalarKind::String;

const Row kRows[] = {
    // resolveMap (the null and YAML 1.1 boolean words): the word table below
    {"nULL", Str, "nULL", "hint 'M' but not in resolveMap: string"},
    {"yEs", Str, "yEs", "only three spellings of each word"},
    {"tRUE", Str, "tRUE", "only three spellings of each word"},
    {"Yes!", Str, "Yes!", "not in resolveMap"},
    {"~a", Str, "~a", "not in resolveMap"},
    // hint 'D'/'S': ParseInt(plain, 0, 64) with every '_' removed first
    {"0", Int, 0, "ParseInt base 0: \"0\""},
    {"42", Int, 42, "ParseInt decimal"},
    {"-42", Int, -42, "ParseInt sign"},
    {"+42", Int, 42, "ParseInt takes '+'"},
    {"-0", Int, 0, "ParseInt sign"},
    {"1_000", Int, 1000, "underscores removed before ParseInt"},
    {"1__0", Int, 10, "every underscore removed, wherever it is"},
    {"1_", Int, 1, "every underscore removed, wherever it is"},
    {"0x1F", Int, 31, "ParseInt base 0: 0x hex"},
    {"0X1f", Int, 31, "ParseInt base 0: 0X hex, either case of digits"},
    {"-0x1F", Int, -31, "ParseInt sign before the prefix"},
    {"+0x10", Int, 16, "ParseInt sign before the prefix"},
    {"0o17", Int, 15, "ParseInt base 0: 0o octal"},
    {"0O17", Int, 15, "ParseInt base 0: 0O octal"},
    {"017", Int, 15, "ParseInt base 0: a leading 0 is octal"},
    {"00", Int, 0, "ParseInt base 0: octal 0"},
    {"0b101", Int, 5, "ParseInt base 0: 0b binary"},
    {"-0b101", Int, -5, "ParseInt base 0: signed binary"},
    {"9223372036854775807", Int, INT64_MAX, "ParseInt: largest int64"},
    {"-9223372036854775808", Int, INT64_MIN, "ParseInt: smallest int64"},
    {"9223372036854775808", Int, std::uint64_t{9223372036854775808u}, "ParseInt range error, ParseUint"},
    {"18446744073709551615", Int, UINT64_MAX, "ParseUint: largest uint64"},
    // yamlStyleFloat + ParseFloat, after ParseInt/ParseUint failed
    {"1.5", Float, 1.5, "yamlStyleFloat"},
    {"-1.5", Float, -1.5, "yamlStyleFloat with sign"},
    {"1.", Float, 1.0, "yamlStyleFloat: digits, '.', no fraction"},
    {"1e3", Float, 1000.0, "yamlStyleFloat with exponent"},
    {"1E-2", Float, 0.01, "yamlStyleFloat with exponent"},
    {"08", Float, 8.0, "not octal (ParseInt fails on 8), but yamlStyleFloat"},
    {"09.5", Float, 9.5, "yamlStyleFloat"},
    {"1_000.5", Float, 1000.5, "underscores removed, then yamlStyleFloat"},
    {"18446744073709551616", Float, 18446744073709551616.0, "too large for ParseUint: ParseFloat"},
    {"+18446744073709551615", Float, 18446744073709551615.0, "ParseUint takes no sign: ParseFloat"},
    {"1e400", Str, "1e400", "ParseFloat ErrRange: the text stays a string"},
    // hint '.': resolveMap, then ParseFloat of the text as it is
    {".5", Float, 0.5, "hint '.': ParseFloat"},
    {".5e1", Float, 5.0, "hint '.': ParseFloat"},
    {".5_0", Float, 0.5, "hint '.': ParseFloat accepts '_' between digits (underscoreOK)"},
    {"._5", Str, "._5", "hint '.': underscoreOK fails"},
    {".", Str, ".", "hint '.': ParseFloat fails"},
    {".inf", Float, kInf, "resolveMap .inf"},
    {".Inf", Float, kInf, "resolveMap .Inf"},
    {"+.INF", Float, kInf, "resolveMap +.INF"},
    {"-.inf", Float, -kInf, "resolveMap -.inf"},
    {".NaN", Float, kNaN, "resolveMap .NaN"},
    {".iNf", Str, ".iNf", "not in resolveMap, not a Go float"},
    // parseTimestamp (allowedTimestampFormats), tried before ints and floats
    {"2001-12-14", Stamp, "2001-12-14", "layout 2006-1-2"},
    {"2001-1-2", Stamp, "2001-1-2", "layout 2006-1-2: one-digit month and day"},
    {"2024-05-01T10:00:00Z", Stamp, "2024-05-01T10:00:00Z", "layout 2006-1-2T15:4:5.999999999Z07:00"},
    {"2001-12-14t21:59:43.10-05:00", Stamp, "2001-12-14t21:59:43.10-05:00", "lower-case t layout"},
    {"2001-12-14 21:59:43.10", Stamp, "2001-12-14 21:59:43.10", "layout 2006-1-2 15:4:5.999999999"},
    {"2001-12-14 21:59:43.10 -5", Str, "2001-12-14 21:59:43.10 -5", "no layout takes a zone after a space"},
    {"2024-02-30", Str, "2024-02-30", "time.Parse: day out of range"},
    {"2024-13-01", Str, "2024-13-01", "time.Parse: month out of range"},
    {"2024-05-01T10:00:00", Str, "2024-05-01T10:00:00", "the T layouts need a zone"},
    // strings
    {"2Gi", Str, "2Gi", "hint 'D', nothing parses"},
    {"500m", Str, "500m", "hint 'D', nothing parses"},
    {"1.2.3", Str, "1.2.3", "not yamlStyleFloat"},
    {"0x", Str, "0x", "ParseInt base 0: \"0x\" is octal with a bad digit"},
    {"0xG", Str, "0xG", "ParseInt: bad hex digit"},
    {"1:20", Str, "1:20", "base 60 is not resolved (only quoted on output)"},
    {"-c", Str, "-c", "hint 'S', nothing parses"},
    {"-", Str, "-", "hint 'S', nothing parses"},
    {"1e", Str, "1e", "not yamlStyleFloat"},
    {"_1", Str, "_1", "'_' has no hint"},
    {"<<", Str, "<<", "'<' has no hint (the merge key is found by the decoder)"},
    {"abc", Str, "abc", "no hint"},
    {"Hello, world", Str, "Hello, world", "no hint"},
};

// resolveMap of resolve.go: each word in exactly these three (or two) spellings.
struct Words {
  std::vector<const char*> spellings;
  ScalarKind kind;
  json value;
};
const Words kWords[] = {
    {{"", "~", "null", "Null", "NULL"}, Null, nullptr},
    {{"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"}, Bool, true},
    {{"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"}, Bool, false},
};

}  // namespace

TEST_CASE("the words of resolveMap are null or booleans, in their spellings only", "[yaml][scalar]") {
  for (const Words& w : kWords) {
    for (const char* text : w.spellings) {
      INFO("\"" << text << "\"");
      json value;
      CHECK(static_cast<int>(resolve_plain(text, &value)) == static_cast<int>(w.kind));
      CHECK(value == w.value);
      CHECK(trainctl::yaml::needs_quotes(text));
    }
  }
}

TEST_CASE("plain scalars resolve as go-yaml v2 resolves them", "[yaml][scalar]") {
  for (const Row& row : kRows) {
    INFO("\"" << row.text << "\": " << row.rule);
    json value;
    const ScalarKind kind = resolve_plain(row.text, &value);
    CHECK(static_cast<int>(kind) == static_cast<int>(row.kind));
    if (row.kind == ScalarKind::Float && std::isnan(row.value.get<double>())) {
      CHECK(std::isnan(value.get<double>()));
      continue;
    }
    CHECK(value == row.value);
    CHECK(value.type() == row.value.type());  // 1.0 stays a double, 42 an int, 2^63 unsigned
  }
}

TEST_CASE("go_yaml_quotes is go-yaml's encoder rule: not a string when plain, or base 60", "[yaml][scalar]") {
  const auto needs_quotes = trainctl::yaml::go_yaml_quotes;
  for (const Row& row : kRows) {
    INFO(row.text);
    // ":" and "#" aside (yaml-cpp's own concern), a row quotes exactly when it is not a string.
    if (std::string(row.text) != "1:20") CHECK(needs_quotes(row.text) == (row.kind != ScalarKind::String));
  }
  // goyaml.v2/encode.go isBase60Float: ^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$
  CHECK(needs_quotes("1:20"));
  CHECK(needs_quotes("-3:25:45.5"));
  CHECK(needs_quotes("190:20:30"));
  CHECK_FALSE(needs_quotes("1:60"));   // :[0-5]?[0-9] takes no 60
  CHECK_FALSE(needs_quotes("1:2:"));   // a group needs a digit
  CHECK_FALSE(needs_quotes("a:20"));   // starts with a digit or sign
  CHECK_FALSE(needs_quotes("1:200"));  // at most two digits a group
}

TEST_CASE("pyyaml_reads_plain_differently is PyYAML's reading (PyYAML as the judge)", "[yaml][scalar][oracle]") {
  std::vector<std::string> texts;
  for (const Row& row : kRows) texts.push_back(row.text);
  for (const Words& w : kWords)
    for (const char* t : w.spellings) texts.push_back(t);
  for (const char* t : {"2024-02-30", "2024-2-3", "2001-12-14 21:59:43.10 -5", "2001-12-14t21:59:43.10-05:00", "<<",
                        "=", "==", "1_0.5", "0b_1", "+0_7", "0_8", "1:20.5", "._5", ".5_", "0x_", "0x_G", "-0",
                        "+.inf", "-.NaN", "1e3", "1.5e3", "1.5e+3", "190:20:30", "1:60", "Null", "nULL", "~a",
                        "y", "n", "2Gi", "500m", "1.2.3", "-c", "0o17", "08", "09.5", "1__0"})
    texts.push_back(t);
  if (!trainctl::testing::have_pyyaml()) return;
  const std::vector<bool> as_string = trainctl::testing::pyyaml_reads_plain_as_string(texts);
  REQUIRE(as_string.size() == texts.size());
  for (size_t i = 0; i < texts.size(); ++i) {
    INFO("\"" << texts[i] << "\"");
    // What the predicate says PyYAML misreads, PyYAML misreads.
    if (trainctl::yaml::pyyaml_reads_plain_differently(texts[i])) CHECK_FALSE(as_string[i]);
    // What PyYAML misreads as `k: TEXT` is never written so: quoted by the scalar rule, or by
    // yaml-cpp for its syntax ("-", "- a").
    if (!as_string[i]) CHECK(trainctl::yaml::to_yaml(nlohmann::json{{"k", texts[i]}}) != "k: " + texts[i] + "\n");
  }
}
