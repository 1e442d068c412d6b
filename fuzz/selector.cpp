// Fuzzes label and field selector parsing and matching: kubesim's parser (=, ==, !=, in,
// notin, exists, !key; field selectors with =, ==, !=) as kube-apiserver reads
// labelSelector/fieldSelector, trainctl's own equality matcher (kube::labels_match), and
// the percent-encoding that puts a selector in a query string. The input is the selector
// text, optionally followed by a line with a JSON object to match against.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "kube/json_util.h"
#include "kube/client.h"
#include "kubesim/selector.h"
#include "kubesim/store.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const size_t nl = input.find('\n');
  const std::string selector = input.substr(0, nl);
  nlohmann::json obj = nlohmann::json::parse(nl == std::string::npos ? "" : input.substr(nl + 1), nullptr, false);
  if (obj.is_discarded())
    obj = {{"metadata", {{"name", "mnist"}, {"namespace", "default"}, {"labels", {{"app", "pytorchjob"}}}}},
           {"spec", {{"nodeName", "node-1"}}},
           {"status", {{"phase", "Running"}}}};

  (void)trainctl::kube::labels_match(obj, selector);
  (void)trainctl::kube::url_encode(selector);
  const auto& labels = obj.is_object() && obj.contains("metadata") && obj["metadata"].is_object() &&
                               obj["metadata"].contains("labels")
                           ? obj["metadata"]["labels"]
                           : nlohmann::json();
  try {
    auto s = kubesim::LabelSelector::parse(selector);
    (void)s.matches(labels);
    (void)s.matches(nullptr);
  } catch (const kubesim::StatusError&) {
  }
  try {
    auto f = kubesim::FieldSelector::parse(selector);
    (void)f.matches(obj);
  } catch (const kubesim::StatusError&) {
  }
  for (const char* path : {"metadata.name", "metadata.namespace", "spec.nodeName", "status.phase"})
    (void)kubesim::field_value(obj, path);
  return 0;
}
