// Request bodies decoded as kube-apiserver decodes JSON: Go's encoding/json rules, in the copy
// apimachinery uses (sigs.k8s.io/json internal/golang/encoding/json, kubernetes_patch.go):
//   - bytes that are not well-formed UTF-8 inside a string are each read as U+FFFD (decode.go
//     unquote: utf8.DecodeRune), not refused;
//   - anything that is not JSON is a syntax error with the scanner's wording (scanner.go):
//     "invalid character 'x' looking for beginning of value", "... after object key:value
//     pair", "unexpected end of JSON input", nesting deeper than 10000 "exceeded max depth";
//   - a key that appears twice in one object is a strict decoding error, `duplicate field
//     "metadata.name"`, named by its path (strictFieldStack: keys joined with ".", list items
//     as "[i]"); the later value wins.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace kubesim {

inline constexpr std::string_view kUtf8Replacement = "\xEF\xBF\xBD";  // U+FFFD

// A body that is not JSON; what() is the scanner's message.
struct JsonSyntaxError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// JSON whose value Go cannot hold: a number past float64 (decode.go convertNumber), "json:
// cannot unmarshal number 1e999 into Go value of type float64".
struct JsonValueError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The keys of a decoded document.
struct KeyReport {
  // Paths of repeated keys, each with its place among the keys of the document (the order in
  // which the decoder meets them).
  std::vector<std::pair<size_t, std::string>> duplicates;
  // The place of the first occurrence of every key path ("spec.containers[0].image").
  std::unordered_map<std::string, size_t> key_order;
};

struct DecodedJson {
  nlohmann::json value;
  KeyReport keys;
};

// Throws JsonSyntaxError or JsonValueError.
DecodedJson decode_json(std::string_view body);

// The syntax check alone (json_scanner.cpp): the body with each byte that is not UTF-8 inside
// a string replaced by U+FFFD (and a lone UTF-16 surrogate escape by \\ufffd); throws
// JsonSyntaxError with the scanner's message.
std::string scan_go_json(std::string_view body);

// The bytes that are not well-formed UTF-8 replaced by U+FFFD, one for each byte, as Go's
// encoding/json writes a string (a Status message that quotes the body).
std::string go_utf8(std::string_view text);

}  // namespace kubesim
