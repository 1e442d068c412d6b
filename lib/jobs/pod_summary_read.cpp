// summarize_pod straight from a list page as simdjson parsed it (pod_summary.h): the fields
// summarize_pod reads, read where they lie, with no nlohmann::json built for the pod. The
// rules are the ones the object reader applies: display_status, restarts and
// pod_pending_reason on PodStatusFacts (pod_status.h), parse_count (gpu.h), parse_time. Reads
// follow kube/json_util.h's: a missing key or a value of another type reads as absent (a
// string that is not a string is "", a number that is not a number 0), and of repeated keys
// the last one counts, as in the object nlohmann's parser (and page_stream.cpp) builds.
// tests/jobs/test_pod_summary_read.cpp holds both readers to the same summaries.
#include <simdjson.h>

#include <algorithm>
#include <optional>
#include <utility>

#include "jobs/gpu.h"
#include "jobs/pod_status.h"
#include "jobs/pod_summary.h"

namespace trainctl::jobs {

namespace {

namespace dom = simdjson::dom;
using nlohmann::json;

// obj[key] (the last of repeated keys), when obj is an object that has it.
std::optional<dom::element> member(const dom::element& obj, std::string_view key) {
  dom::object o;
  if (obj.get_object().get(o)) return std::nullopt;
  std::optional<dom::element> found;
  for (dom::key_value_pair kv : o)
    if (kv.key == key) found = kv.value;
  return found;
}

std::string_view text_of(const std::optional<dom::element>& v) {
  std::string_view s;
  if (!v || v->get_string().get(s)) return {};
  return s;
}

// obj[key] when it is a string, else "" (str in kube/json_util.h).
std::string_view str_at(const std::optional<dom::element>& obj, std::string_view key) {
  return obj ? text_of(member(*obj, key)) : std::string_view();
}

bool is_type(const std::optional<dom::element>& v, dom::element_type type) { return v && v->type() == type; }

bool has_object(const std::optional<dom::element>& obj, std::string_view key) {
  return obj && is_type(member(*obj, key), dom::element_type::OBJECT);
}

// A number as nlohmann's get<long long>() gives it; 0 for anything else.
long long number_of(const std::optional<dom::element>& v) {
  if (!v) return 0;
  switch (v->type()) {
    case dom::element_type::INT64: return int64_t(*v);
    case dom::element_type::UINT64: return static_cast<long long>(uint64_t(*v));
    case dom::element_type::DOUBLE: return static_cast<long long>(double(*v));
    default: return 0;
  }
}

bool bool_of(const std::optional<dom::element>& v) {
  bool b = false;
  return v && !v->get_bool().get(b) && b;
}

// A scalar as the nlohmann value page_stream.cpp builds of it, for parse_count.
json scalar_of(const std::optional<dom::element>& v) {
  if (!v) return nullptr;
  switch (v->type()) {
    case dom::element_type::STRING: return std::string(text_of(v));
    case dom::element_type::INT64: {
      const int64_t n = int64_t(*v);
      return n >= 0 ? json(static_cast<uint64_t>(n)) : json(n);
    }
    case dom::element_type::UINT64: return uint64_t(*v);
    case dom::element_type::DOUBLE: return double(*v);
    case dom::element_type::BOOL: return bool(*v);
    case dom::element_type::OBJECT: return json::object();
    case dom::element_type::ARRAY: return json::array();
    default: return nullptr;
  }
}

// The elements of an array; nothing for anything else (the API's types hold arrays there).
template <typename F>
void for_each_element(const std::optional<dom::element>& v, F&& f) {
  dom::array a;
  if (!v || v->get_array().get(a)) return;
  for (dom::element e : a) f(e);
}

ContainerStateFacts container_facts_of(const dom::element& c) {
  ContainerStateFacts f;
  f.name = text_of(member(c, "name"));
  const auto state = member(c, "state");
  const auto terminated = state ? member(*state, "terminated") : std::nullopt;
  const auto waiting = state ? member(*state, "waiting") : std::nullopt;
  f.terminated = is_type(terminated, dom::element_type::OBJECT);
  f.exit_code = terminated ? number_of(member(*terminated, "exitCode")) : 0;
  f.signal = terminated ? number_of(member(*terminated, "signal")) : 0;
  f.terminated_reason = str_at(terminated, "reason");
  f.waiting = is_type(waiting, dom::element_type::OBJECT);
  f.waiting_reason = str_at(waiting, "reason");
  f.running = has_object(state, "running");
  f.started = bool_of(member(c, "started"));
  f.ready = bool_of(member(c, "ready"));
  f.restart_count = number_of(member(c, "restartCount"));
  return f;
}

// The GPUs of one container's limits, as gpu.cpp's sum_limits counts them.
long long container_gpus_of(const dom::element& c) {
  const auto resources = member(c, "resources");
  const auto limits = resources ? member(*resources, "limits") : std::nullopt;
  if (!limits) return 0;
  const auto nvidia = member(*limits, "nvidia.com/gpu");
  long long n = parse_count(scalar_of(nvidia));
  if (!nvidia || nvidia->is_null()) n = parse_count(scalar_of(member(*limits, "alpha.kubernetes.io/nvidia-gpu")));
  return n + parse_count(scalar_of(member(*limits, "aliyun.com/gpu")));
}

}  // namespace

PodSummary summarize_pod(const kube::PageItem& item, bool containers) {
  const dom::element& pod = item.element();
  PodSummary s;
  Instance& i = s.instance;
  const auto meta = member(pod, "metadata");
  const auto spec = member(pod, "spec");
  const auto status = member(pod, "status");

  PodStatusFacts facts;
  facts.phase = str_at(status, "phase");
  facts.reason = str_at(status, "reason");
  facts.deleting = meta && is_type(member(*meta, "deletionTimestamp"), dom::element_type::STRING);
  bool first_scheduled = true, first_initialized = true, first_ready = true;
  for_each_element(status ? member(*status, "conditions") : std::nullopt, [&](const dom::element& c) {
    const std::string_view type = text_of(member(c, "type"));
    const std::string_view cstatus = text_of(member(c, "status"));
    const std::string_view reason = text_of(member(c, "reason"));
    if (type == "PodScheduled") {
      if (reason == "SchedulingGated") facts.scheduling_gated = true;
      if (std::exchange(first_scheduled, false)) {
        facts.scheduled_status = cstatus;
        facts.scheduled_reason = reason;
      }
    }
    if (type == "Initialized" && std::exchange(first_initialized, false)) facts.initialized = cstatus == "True";
    if (type == "Ready" && std::exchange(first_ready, false)) facts.ready = cstatus == "True";
    auto t = parse_time(text_of(member(c, "lastTransitionTime")));
    if (t && (!s.latest_transition || *t > *s.latest_transition)) s.latest_transition = t;
  });
  for_each_element(spec ? member(*spec, "initContainers") : std::nullopt, [&](const dom::element& c) {
    facts.init_containers.emplace_back(std::string(text_of(member(c, "name"))),
                                       text_of(member(c, "restartPolicy")) == "Always");
    if (containers) i.init_containers.emplace_back(text_of(member(c, "name")));
  });
  for_each_element(status ? member(*status, "initContainerStatuses") : std::nullopt,
       [&](const dom::element& c) { facts.init_statuses.push_back(container_facts_of(c)); });
  for_each_element(status ? member(*status, "containerStatuses") : std::nullopt,
       [&](const dom::element& c) { facts.statuses.push_back(container_facts_of(c)); });
  for_each_element(spec ? member(*spec, "containers") : std::nullopt, [&](const dom::element& c) {
    i.gpus += container_gpus_of(c);
    if (containers) i.containers.emplace_back(text_of(member(c, "name")));
  });

  i.name = str_at(meta, "name");
  i.status = display_status(facts);
  i.phase = facts.phase;
  i.node_name = str_at(spec, "nodeName");
  i.node_ip = str_at(status, "hostIP");
  s.pending_reason = pod_pending_reason(facts);
  i.created = parse_time(str_at(meta, "creationTimestamp"));
  i.restarts = restarts(facts);
  s.namespace_ = str_at(meta, "namespace");
  s.priority_class = str_at(spec, "priorityClassName");
  s.started = status && is_type(member(*status, "startTime"), dom::element_type::STRING);

  // The kept labels, each the last of its key; the annotations read: each kept label's that
  // a kind reads from its annotation, the owner's GPU request and the GPU-share devices.
  const auto& keys = kept_pod_labels();
  std::vector<std::optional<std::string_view>> labels(keys.size()), annotations(keys.size());
  const auto index = [&keys](std::string_view key) {
    const auto it = std::lower_bound(keys.begin(), keys.end(), key);
    return it != keys.end() && *it == key ? static_cast<size_t>(it - keys.begin()) : keys.size();
  };
  std::string_view request, gpu_index;
  dom::object o;
  const auto label_map = meta ? member(*meta, "labels") : std::nullopt;
  const auto annotation_map = meta ? member(*meta, "annotations") : std::nullopt;
  if (label_map && !label_map->get_object().get(o))
    for (dom::key_value_pair kv : o)
      if (const size_t k = index(kv.key); k < keys.size())
        labels[k] = kv.value.is_string() ? std::optional(std::string_view(kv.value)) : std::nullopt;
  if (annotation_map && !annotation_map->get_object().get(o)) {
    for (dom::key_value_pair kv : o) {
      const std::string_view value = kv.value.is_string() ? std::string_view(kv.value) : std::string_view();
      if (kv.key == "requestGPUsOfJobOwner") request = value;
      if (kv.key == "ALIYUN_COM_GPU_MEM_IDX") gpu_index = value;
      if (const size_t k = index(kv.key); k < keys.size()) annotations[k] = value;
    }
  }
  for (size_t k = 0; k < keys.size(); ++k) {
    if (labels[k]) {
      s.labels.emplace_back(static_cast<unsigned char>(k), std::string(*labels[k]));
    } else if (kept_pod_label_from_annotation(k) && annotations[k] && !annotations[k]->empty()) {
      s.labels.emplace_back(static_cast<unsigned char>(k), std::string(*annotations[k]));
    }
  }
  add_chief_labels(s);
  if (!request.empty()) s.owner_request = std::max(0LL, parse_count(json(std::string(request))));
  i.gpu_index = gpu_index;
  return s;
}

}  // namespace trainctl::jobs
