#include "jobs/pod_summary.h"

#include <algorithm>

#include "jobs/gpu.h"
#include "jobs/json_util.h"
#include "jobs/kind.h"
#include "jobs/diagnose/pending_reason.h"
#include "jobs/pod_status.h"

namespace trainctl::jobs {

using nlohmann::json;

namespace {

void add_selector_keys(std::vector<std::string>& keys, std::string_view selector) {
  while (!selector.empty()) {
    const size_t comma = selector.find(',');
    std::string_view term = selector.substr(0, comma);
    selector = comma == std::string_view::npos ? std::string_view() : selector.substr(comma + 1);
    term = term.substr(0, term.find('='));
    if (!term.empty()) keys.emplace_back(term);
  }
}

// Every label key a job kind reads from pods, and whether a kind reads it from the annotation
// of that key where the label is absent.
struct KeptLabels {
  std::vector<std::string> keys;
  std::vector<bool> from_annotation;
};

const KeptLabels& kept() {
  static const KeptLabels kept = [] {
    KeptLabels l;
    std::vector<std::string>& k = l.keys;
    for (const auto& kind : all_kinds()) {
      k.push_back(kind.pod_job_label);
      k.push_back(kind.chief_label);
      for (const auto& rule : kind.chief_fallbacks) add_selector_keys(k, rule);
      if (!kind.pod_task_label.empty()) k.push_back(kind.pod_task_label);
      k.insert(k.end(), kind.pod_labels_from_annotations.begin(), kind.pod_labels_from_annotations.end());
      add_selector_keys(k, kind.pod_extra_selector);
    }
    std::sort(k.begin(), k.end());
    k.erase(std::unique(k.begin(), k.end()), k.end());
    l.from_annotation.resize(k.size());
    for (const auto& kind : all_kinds())
      for (const auto& key : kind.pod_labels_from_annotations)
        l.from_annotation[std::find(k.begin(), k.end(), key) - k.begin()] = true;
    return l;
  }();
  return kept;
}

const std::vector<std::string>& kept_labels() { return kept().keys; }

// The index of a kept label key, or kept_labels().size() when the key is not kept.
size_t key_index(std::string_view key) {
  const auto& keys = kept_labels();
  return static_cast<size_t>(std::find(keys.begin(), keys.end(), key) - keys.begin());
}

}  // namespace

const std::vector<std::string>& kept_pod_labels() { return kept_labels(); }
bool kept_pod_label_from_annotation(size_t k) { return kept().from_annotation[k]; }

void add_chief_labels(PodSummary& s) {
  // A chief label older releases do not set, as the kind reads it from the pod.
  for (const auto& kind : all_kinds()) {
    if (!kind.chief_value_from_pod || !s.label(kind.chief_label).empty()) continue;
    std::string value = kind.chief_value_from_pod(s);
    if (!value.empty())
      s.labels.emplace_back(static_cast<unsigned char>(key_index(kind.chief_label)), std::move(value));
  }
}

const std::string& PodSummary::label(std::string_view key) const {
  static const std::string empty;
  const size_t index = key_index(key);
  for (const auto& [k, v] : labels)
    if (k == index) return v;
  return empty;
}

bool PodSummary::matches(std::string_view selector) const {
  while (!selector.empty()) {
    const size_t comma = selector.find(',');
    std::string_view term = selector.substr(0, comma);
    selector = comma == std::string_view::npos ? std::string_view() : selector.substr(comma + 1);
    if (term.empty()) continue;
    const size_t eq = term.find('=');
    const size_t index = key_index(term.substr(0, eq));
    auto it = std::find_if(labels.begin(), labels.end(), [&](const auto& l) { return l.first == index; });
    if (it == labels.end()) return false;
    if (eq != std::string_view::npos && it->second != term.substr(eq + 1)) return false;
  }
  return true;
}

PodSummary summarize_pod(const json& pod, bool containers) {
  PodSummary s;
  const auto& meta = at(pod, "metadata");
  const auto& spec = at(pod, "spec");
  const auto& status = at(pod, "status");
  Instance& i = s.instance;
  i.name = str(meta, "name");
  const PodStatusFacts facts = pod_status_facts(pod);
  i.status = display_status(facts);
  i.phase = str(status, "phase");
  i.node_name = str(spec, "nodeName");
  i.node_ip = str(status, "hostIP");
  i.gpus = pod_gpus(pod);
  s.pending_reason = pod_pending_reason(facts);
  i.created = parse_time(str(meta, "creationTimestamp"));
  i.restarts = restarts(facts);
  if (containers) {
    for (const auto& c : at(spec, "initContainers")) i.init_containers.push_back(str(c, "name"));
    for (const auto& c : at(spec, "containers")) i.containers.push_back(str(c, "name"));
  }
  s.namespace_ = str(meta, "namespace");
  const auto& labels = at(meta, "labels");
  const auto& keys = kept_labels();
  for (size_t k = 0; k < keys.size(); ++k) {
    const auto& v = at(labels, keys[k]);
    if (v.is_string()) {
      s.labels.emplace_back(static_cast<unsigned char>(k), v.get<std::string>());
    } else if (kept().from_annotation[k]) {
      // A label older releases set as an annotation only (the kinds' pod_labels_from_annotations).
      const std::string value = annotation(pod, keys[k]);
      if (!value.empty()) s.labels.emplace_back(static_cast<unsigned char>(k), value);
    }
  }
  add_chief_labels(s);
  s.priority_class = str(spec, "priorityClassName");
  for (const auto& c : at(status, "conditions")) {
    auto t = parse_time(str(c, "lastTransitionTime"));
    if (t && (!s.latest_transition || *t > *s.latest_transition)) s.latest_transition = t;
  }
  const std::string request = annotation(pod, "requestGPUsOfJobOwner");
  if (!request.empty()) s.owner_request = std::max(0LL, parse_count(json(request)));
  s.started = at(status, "startTime").is_string();
  // The GPU-share scheduler extender records the devices it placed the pod on.
  i.gpu_index = annotation(pod, "ALIYUN_COM_GPU_MEM_IDX");
  return s;
}

const kube::FieldSet& pod_summary_fields() {
  // What summarize_pod, pod_display_status and pod_restarts (pod_status.cpp), pod_gpus
  // (gpu.cpp) and pod_pending_reason (pending_reason.cpp) read, and no more: a kubelet's
  // container statuses also carry image IDs, container IDs, volume mounts and resources,
  // which none of them reads (tests/jobs/test_read_fields.cpp).
  static const kube::FieldSet fields = {
      "metadata.name",
      "metadata.namespace",
      "metadata.creationTimestamp",
      "metadata.deletionTimestamp",
      "metadata.labels",
      "metadata.annotations",
      "spec.nodeName",
      "spec.priorityClassName",
      "spec.schedulingGates",
      "spec.containers.name",
      "spec.containers.image",
      "spec.containers.resources",
      "spec.initContainers.name",
      "spec.initContainers.restartPolicy",
      "status.phase",
      "status.reason",
      "status.hostIP",
      "status.startTime",
      "status.conditions.type",
      "status.conditions.status",
      "status.conditions.reason",
      "status.conditions.lastTransitionTime",
      "status.initContainerStatuses.name",
      "status.initContainerStatuses.started",
      "status.initContainerStatuses.state",
      "status.containerStatuses.name",
      "status.containerStatuses.ready",
      "status.containerStatuses.restartCount",
      "status.containerStatuses.state",
  };
  return fields;
}

}  // namespace trainctl::jobs
