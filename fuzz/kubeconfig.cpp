// Fuzzes kubeconfig parsing: YAML text -> Kubeconfig (parse_kubeconfig_text), kubectl's merge
// of two files, and the RestConfig of every context (build_rest_config: server, TLS,
// credentials, exec settings, base64 *-data fields). Malformed input must end in ConfigError.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/errors.h"
#include "core/log.h"
#include "kube/kubeconfig_build.h"
#include "kube/kubeconfig_file.h"

using namespace trainctl;
using namespace trainctl::kube::detail;

namespace {

// Relative references resolve under this directory, which does not exist.
constexpr const char* kPath = "/nonexistent-trainctl-fuzz/config";

// build_rest_config reads referenced files; an input naming /dev/zero or /dev/stdin would
// make the fuzzer read forever, so contexts that reference files are only parsed.
bool references_files(const Kubeconfig& config, const KubeconfigContext& context) {
  auto c = config.clusters.find(context.cluster);
  if (c != config.clusters.end() && !c->second.certificate_authority.empty()) return true;
  auto u = config.users.find(context.user);
  if (u == config.users.end()) return false;
  return !u->second.token_file.empty() || !u->second.client_certificate.empty() ||
         !u->second.client_key.empty();
}

void build_all(const Kubeconfig& config) {
  for (const auto& [name, context] : config.contexts) {
    if (references_files(config, context)) continue;
    try {
      kube::RestConfig rest = build_rest_config(config, name, context);
      (void)rest;
    } catch (const ConfigError&) {
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  log::set_level(log::Level::Error);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    Kubeconfig config = parse_kubeconfig_text(text, kPath);
    build_all(config);
    // The second half of the input as a second file merged under the first.
    Kubeconfig merged = parse_kubeconfig_text(text.substr(0, size / 2), kPath);
    merge_kubeconfig(merged, parse_kubeconfig_text(text.substr(size / 2), "other/config"));
    build_all(merged);
  } catch (const ConfigError&) {
  }
  log::clear_secrets();
  return 0;
}
