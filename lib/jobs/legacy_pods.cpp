#include "jobs/legacy_pods.h"

#include <algorithm>

#include "jobs/json_util.h"
#include "jobs/pod_summary.h"
#include "kube/list_reads.h"
#include "kube/resource.h"
#include "object/owner.h"

namespace trainctl::jobs {

using nlohmann::json;

std::string modernize_pod(const JobKind& kind, json& pod) {
  if (kind.legacy_pod_selector.empty()) return "";
  std::string job;
  if (const json* o = object::controller_of(pod);
      o && str(*o, "kind") == kind.resource.kind && str(*o, "apiVersion").rfind(kind.resource.group + "/", 0) == 0)
    job = str(*o, "name");
  if (job.empty()) return "";
  json& labels = pod["metadata"]["labels"];
  if (!labels.is_object()) labels = json::object();
  if (labels.contains(kind.pod_job_label)) return "";
  labels[kind.pod_job_label] = job;
  // The extra selector's equality terms ("k=v"): the operator name the current releases set.
  std::string_view extra = kind.pod_extra_selector;
  while (!extra.empty()) {
    const size_t comma = extra.find(',');
    const std::string_view term = extra.substr(0, comma);
    extra = comma == std::string_view::npos ? std::string_view() : extra.substr(comma + 1);
    const size_t eq = term.find('=');
    if (eq != std::string_view::npos && eq > 0 && term[eq - 1] != '!')
      labels[std::string(term.substr(0, eq))] = std::string(term.substr(eq + 1));
  }
  for (const auto& [current, older] : kind.legacy_pod_labels)
    if (!labels.contains(current) && labels.contains(older)) labels[current] = labels[older];
  return job;
}

std::vector<std::pair<std::string, std::vector<size_t>>> legacy_selectors(const std::vector<const JobKind*>& kinds) {
  std::vector<std::pair<std::string, std::vector<size_t>>> out;
  for (size_t k = 0; k < kinds.size(); ++k) {
    const std::string& s = kinds[k]->legacy_pod_selector;
    if (s.empty()) continue;
    auto it = std::find_if(out.begin(), out.end(), [&](const auto& e) { return e.first == s; });
    if (it == out.end()) it = out.insert(out.end(), {s, {}});
    it->second.push_back(k);
  }
  return out;
}

std::vector<json> read_job_pods(kube::Client& client, const JobKind& kind, const std::string& ns,
                                const std::string& job) {
  kube::ListQuery q;
  q.label_selector = kind.pod_selector(job);
  auto pods = kube::read_all(client, {{kube::pods().collection_path(ns), true, q}})[0].items;
  return pods.empty() ? read_legacy_pods(client, kind, ns, job) : pods;
}

std::vector<json> read_legacy_pods(kube::Client& client, const JobKind& kind, const std::string& ns,
                                   const std::string& job) {
  std::vector<json> pods;
  if (kind.legacy_pod_selector.empty()) return pods;
  kube::ListQuery q;
  q.label_selector = kind.legacy_pod_selector;
  auto read = kube::list_read(kube::pods(), ns, q, [&](json& p) {
    if (modernize_pod(kind, p) == job) pods.push_back(std::move(p));
  });
  read.fields = &whole_legacy_pod_fields();
  kube::stream_all(client, {read}, kube::kPageSize, [&pods] { pods.clear(); });
  return pods;
}

const kube::FieldSet& whole_legacy_pod_fields() {
  static const kube::FieldSet fields = {"apiVersion",
                                        "kind",
                                        "metadata.name",
                                        "metadata.namespace",
                                        "metadata.uid",
                                        "metadata.creationTimestamp",
                                        "metadata.deletionTimestamp",
                                        "metadata.labels",
                                        "metadata.annotations",
                                        "metadata.ownerReferences",
                                        "spec",
                                        "status"};
  return fields;
}

const kube::FieldSet& legacy_pod_fields() {
  static const kube::FieldSet fields = [] {
    kube::FieldSet f = pod_summary_fields();
    f.add({"metadata", "ownerReferences"});
    return f;
  }();
  return fields;
}

}  // namespace trainctl::jobs
