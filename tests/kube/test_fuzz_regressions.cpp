// Inputs the libFuzzer targets (fuzz/kubeconfig.cpp, fuzz/api_decode.cpp) found to crash
// trainctl, kept as ordinary tests. Each must now end in a value or in trainctl's own errors.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "kube/kubeconfig_file.h"

using namespace trainctl;
using namespace trainctl::kube::detail;

TEST_CASE("an exec extension with bytes that are not UTF-8 is kept, with U+FFFD for them",
          "[kube][fuzz]") {
  // Found by fuzz_kubeconfig: nlohmann's dump() threw type_error 316 through the parser.
  const std::string text =
      "clusters:\n"
      "- name: eks\n"
      "  cluster:\n"
      "    server: https://127.0.0.1:6443\n"
      "    extensions:\n"
      "    - name: client.authentication.k8s.io/exec\n"
      "      extension:\n"
      "        audience: st\xb8\n";
  Kubeconfig config;
  REQUIRE_NOTHROW(config = parse_kubeconfig_text(text, "/nonexistent/config"));
  const auto json = nlohmann::json::parse(config.clusters.at("eks").exec_extension_json);
  CHECK(json.at("audience") == "st\xef\xbf\xbd");  // "st" + U+FFFD, as Go's json.Marshal writes it
}
