// Fuzzes what reads and writes text in Kubernetes' own formats: kubesim's JSON decoding of
// request bodies as kube-apiserver decodes them (kubesim/json_decode.h: Go's scanner and its
// messages, U+FFFD for bytes that are not UTF-8 inside strings, the paths of repeated keys),
// and trainctl's YAML writer (yaml/write.h) on the input as a string value and as a key.
// Whatever the scanner accepts nlohmann must parse (else the decoder would answer with the
// JSON library's text), every message must encode as JSON, and the YAML written must read back
// as the same string.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "core/errors.h"
#include "kubesim/json_decode.h"
#include "yaml/read.h"
#include "yaml/write.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  try {
    const kubesim::DecodedJson d = kubesim::decode_json(input);
    (void)d.value.dump();  // every string is UTF-8 now
    for (const auto& [place, path] : d.keys.duplicates) (void)nlohmann::json(path).dump();
  } catch (const kubesim::JsonSyntaxError& e) {
    const std::string what = e.what();
    if (what.rfind("[json.exception", 0) == 0) std::abort();  // the scanner and nlohmann disagree
    (void)nlohmann::json(kubesim::go_utf8(what)).dump();
  } catch (const kubesim::JsonValueError& e) {
    (void)nlohmann::json(kubesim::go_utf8(e.what())).dump();
  }
  try {
    const nlohmann::json value = {{"k", input}, {input, 1}};
    if (trainctl::yaml::parse(trainctl::yaml::to_yaml(value)) != value) std::abort();
  } catch (const trainctl::Error&) {
    // not UTF-8, or a noncharacter: refused, not changed
  }
  return 0;
}
