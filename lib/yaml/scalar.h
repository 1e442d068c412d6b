// What a plain (unquoted, untagged) YAML scalar means to kubectl: the resolve rules of the
// go-yaml v2 that sigs.k8s.io/yaml vendors (goyaml.v2/resolve.go, sigs.k8s.io/yaml v1.4.0).
//
//   null      "" ~ null Null NULL
//   bool      y Y yes Yes YES true True TRUE on On ON, n N no No NO false False FALSE off Off OFF
//   int       Go strconv.ParseInt(s, 0, 64) after removing every '_', then ParseUint: decimal,
//             0x/0X hex, 0o/0O and leading-0 octal, 0b/0B binary, an optional sign
//             ("1_000" = 1000, "0x1F" = 31, "0o17" = "017" = 15, "0b101" = 5)
//   float     [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)? after removing '_' ("1e3",
//             "08", "1."), .inf/+.inf/-.inf/.nan in three spellings each; a float that
//             overflows (1e400) stays a string
//   timestamp 2006-1-2, 2006-1-2T15:4:5[.frac](Z|±hh:mm) (also with 't'), 2006-1-2 15:4:5[.frac]
//   string    everything else ("2Gi", "1.2.3", "0x", "1:20", "-c", "Yes!")
//
// Only the first byte decides which rules are tried: a scalar that starts with anything but
// a sign, a digit, '.', '~' or one of yYnNtTfFoO is a string without further checks.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

namespace trainctl::yaml {

enum class ScalarKind { Null, Bool, Int, Float, Timestamp, String };

// "!!null", "!!bool", "!!int", "!!float", "!!timestamp", "!!str".
const char* kind_tag(ScalarKind kind);

// The kind a plain scalar resolves to; when `value` is given it receives the resolved value:
// null, a bool, an int64 or uint64, a double (inf and nan included), or the text itself for
// timestamps and strings.
ScalarKind resolve_plain(std::string_view text, nlohmann::json* value = nullptr);

// Whether go-yaml v2's encoder (goyaml.v2/encode.go stringv) writes this string quoted: when
// as a plain scalar it would resolve to anything but a string, or looks like a YAML 1.1
// base 60 number ("1:20", "-3:25:45.5"), which go-yaml still quotes for older readers.
bool go_yaml_quotes(std::string_view text);

// Whether PyYAML (yaml/resolver.py of 6.0, its implicit resolvers for bool, float, int,
// merge, null, timestamp and value) reads this plain scalar as anything but the string: the
// plain scalars go-yaml writes that PyYAML cannot read back are "2024-02-30" (its timestamp
// pattern matches, the date does not exist: an error), "<<" and "=" (merge and value tags,
// which its safe loader cannot construct), and "1_0.5", "0b_1", "+0_7" and the like.
bool pyyaml_reads_plain_differently(std::string_view text);

// The writer's rule (write.h): quoted when either reader would not read the plain scalar
// back as this string.
bool needs_quotes(std::string_view text);

}  // namespace trainctl::yaml
