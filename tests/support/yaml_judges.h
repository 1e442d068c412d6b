// Independent readers of the YAML trainctl writes, so that no test reads our output back with
// the yaml-cpp that wrote it: PyYAML (Debian's python3-yaml, a YAML 1.1 parser of its own) and
// kubectl (go-yaml v2 through sigs.k8s.io/yaml, what `kubectl apply -f -` decodes with).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace trainctl::testing {

// Whether the judge can run here. When it cannot, the test fails under CI=true (nothing may be
// skipped there) and otherwise gets a warning; false is returned either way.
bool have_pyyaml();
bool have_kubectl(const std::string& kubectl = "kubectl");

// Every document of the stream as PyYAML's yaml.safe_load_all reads it. A parse error fails
// the test (its message is the value's INFO).
std::vector<nlohmann::json> pyyaml_read_all(const std::string& yaml);

// For each text, whether PyYAML reads `k: TEXT` back as that very string (false when it reads
// another type, or cannot construct the value at all). The texts must be single-line plain
// scalars.
std::vector<bool> pyyaml_reads_plain_as_string(const std::vector<std::string>& texts);

// The objects kubectl reads from a manifest file (`kubectl patch --local -f FILE --type=merge
// -p {} -o json`: resource.Builder's stream visitor, the decoding of `kubectl apply -f -`, with
// no cluster). Built-in kinds pass through their Go types, custom resources stay unstructured.
// A parse error fails the test.
std::vector<nlohmann::json> kubectl_read_all(const std::string& yaml, const std::string& kubectl = "kubectl");

// The kubectl binaries installed here: `kubectl` and each `kubectl.1.NN` on the PATH.
std::vector<std::string> installed_kubectls();

}  // namespace trainctl::testing
