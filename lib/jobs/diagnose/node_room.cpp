#include "jobs/diagnose/node_room.h"

#include <algorithm>
#include <charconv>
#include <optional>

#include "jobs/gpu.h"
#include "jobs/json_util.h"

namespace trainctl::jobs {

using nlohmann::json;

const kube::FieldSet& node_room_fields() {
  static const kube::FieldSet fields = {"metadata.name",   "metadata.labels",   "spec.unschedulable",
                                        "spec.taints",     "status.conditions", "status.allocatable"};
  return fields;
}

const kube::FieldSet& room_pod_fields() {
  // pod_completed reads the phase, pod_extended_requests the containers' resources.
  static const kube::FieldSet fields = {"spec.nodeName", "spec.containers.resources", "status.phase"};
  return fields;
}

std::map<std::string, long long> pod_extended_requests(const json& pod) {
  std::map<std::string, long long> out;
  for (const auto& c : at_path(pod, {"spec", "containers"})) {
    const auto& req = at_path(c, {"resources", "requests"});
    const auto& lim = at_path(c, {"resources", "limits"});
    std::map<std::string, long long> mine;
    if (lim.is_object())
      for (const auto& [k, v] : lim.items()) mine[k] = parse_count(v);
    if (req.is_object())
      for (const auto& [k, v] : req.items()) mine[k] = parse_count(v);
    for (const auto& [k, v] : mine)
      if (k.find('/') != std::string::npos && v > 0) out[k] += v;
  }
  return out;
}

void NodeRoomBuilder::add_node(const json& node) {
  NodeRoom n;
  n.name = name_of(node);
  n.ready = condition_true(node, "Ready");
  const auto& cordoned = at_path(node, {"spec", "unschedulable"});
  n.unschedulable = cordoned.is_boolean() && cordoned.get<bool>();
  for (const auto& t : at_path(node, {"spec", "taints"}))
    if (str(t, "effect") == "NoSchedule" || str(t, "effect") == "NoExecute")
      n.taints.push_back({str(t, "key"), str(t, "value"), str(t, "effect")});
  const auto& labels = at_path(node, {"metadata", "labels"});
  if (labels.is_object())
    for (const auto& [k, v] : labels.items())
      if (v.is_string()) n.labels[k] = v.get<std::string>();
  const auto& alloc = at_path(node, {"status", "allocatable"});
  if (alloc.is_object())
    for (const auto& [k, v] : alloc.items())
      if (k.find('/') != std::string::npos && parse_count(v) > 0) n.allocatable[k] = parse_count(v);
  m_nodes.push_back(std::move(n));
}

void NodeRoomBuilder::add_pod(const json& pod) {
  const std::string node = str(at(pod, "spec"), "nodeName");
  if (node.empty() || pod_completed(pod)) return;
  for (const auto& [k, v] : pod_extended_requests(pod)) m_used[node][k] += v;
}

std::vector<NodeRoom> NodeRoomBuilder::finish() {
  for (auto& n : m_nodes) {
    const auto& used = m_used[n.name];
    for (const auto& [k, v] : n.allocatable) {
      auto u = used.find(k);
      n.free[k] = std::max(0LL, v - (u == used.end() ? 0 : u->second));
    }
  }
  std::sort(m_nodes.begin(), m_nodes.end(), [](const NodeRoom& a, const NodeRoom& b) { return a.name < b.name; });
  return std::move(m_nodes);
}

namespace {

std::optional<long long> integer(const std::string& s) {
  long long v = 0;
  const auto [end, err] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (err != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

std::vector<std::string> strings(const json& values) {
  std::vector<std::string> out;
  for (const auto& v : values)
    if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

// One NodeSelectorRequirement against a node's labels (apimachinery labels.Requirement.Matches
// after nodeaffinity.go nodeSelectorRequirementsAsSelector); nullopt when it does not parse
// (an unknown operator, In/NotIn without values, Exists/DoesNotExist with values, Gt/Lt without
// exactly one integer), which leaves its term matching nothing.
std::optional<bool> expression_matches(const json& e, const std::map<std::string, std::string>& labels) {
  const std::string op = str(e, "operator");
  const std::vector<std::string> values = strings(at(e, "values"));
  const auto label = labels.find(str(e, "key"));
  const bool has = label != labels.end();
  auto listed = [&] { return has && std::find(values.begin(), values.end(), label->second) != values.end(); };
  if (op == "In" || op == "NotIn") {
    if (values.empty()) return std::nullopt;
    return op == "In" ? listed() : !listed();
  }
  if (op == "Exists" || op == "DoesNotExist") {
    if (!values.empty()) return std::nullopt;
    return op == "Exists" ? has : !has;
  }
  if (op == "Gt" || op == "Lt") {
    const auto bound = values.size() == 1 ? integer(values[0]) : std::nullopt;
    if (!bound) return std::nullopt;
    const auto value = has ? integer(label->second) : std::nullopt;
    return value && (op == "Gt" ? *value > *bound : *value < *bound);
  }
  return std::nullopt;
}

// A matchFields requirement: In or NotIn with one value, on the node's metadata.name.
std::optional<bool> field_matches(const json& e, const std::string& node) {
  const std::string op = str(e, "operator");
  const std::vector<std::string> values = strings(at(e, "values"));
  if ((op != "In" && op != "NotIn") || values.size() != 1) return std::nullopt;
  const std::string field = str(e, "key") == "metadata.name" ? node : "";
  return (field == values[0]) == (op == "In");
}

// One NodeSelectorTerm: its expressions and fields ANDed; an empty term matches nothing.
bool term_matches(const json& term, const NodeRoom& node) {
  const json& exprs = at(term, "matchExpressions");
  const json& fields = at(term, "matchFields");
  if ((!exprs.is_array() || exprs.empty()) && (!fields.is_array() || fields.empty())) return false;
  for (const auto& e : exprs) {
    const auto m = expression_matches(e, node.labels);
    if (!m || !*m) return false;
  }
  for (const auto& e : fields) {
    const auto m = field_matches(e, node.name);
    if (!m || !*m) return false;
  }
  return true;
}

}  // namespace

PodPlacement::PodPlacement(const json& pod) {
  const json& spec = at(pod, "spec");
  m_tolerations = at(spec, "tolerations");
  m_selector = at(spec, "nodeSelector");
  m_required = at_path(spec, {"affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution"});
  m_key = json::array({m_tolerations, m_selector, m_required}).dump();
}

bool PodPlacement::tolerates(const NodeTaint& taint) const {
  for (const auto& t : m_tolerations) {
    const std::string effect = str(t, "effect"), key = str(t, "key"), op = str(t, "operator");
    if (!effect.empty() && effect != taint.effect) continue;
    if (!key.empty() && key != taint.key) continue;
    if (op.empty() || op == "Equal") {
      if (str(t, "value") == taint.value) return true;
    } else if (op == "Exists") {
      return true;
    } else if (op == "Lt" || op == "Gt") {
      const auto bound = integer(str(t, "value")), value = integer(taint.value);
      if (bound && value && (op == "Lt" ? *value < *bound : *value > *bound)) return true;
    }
  }
  return false;
}

bool PodPlacement::affinity_matches(const NodeRoom& node) const {
  if (m_selector.is_object())
    for (const auto& [k, v] : m_selector.items()) {
      const auto label = node.labels.find(k);
      if (label == node.labels.end() || !v.is_string() || label->second != v.get<std::string>()) return false;
    }
  if (!m_required.is_object()) return true;
  const json& terms = at(m_required, "nodeSelectorTerms");
  return std::any_of(terms.begin(), terms.end(), [&](const json& t) { return term_matches(t, node); });
}

std::string PodPlacement::refusal(const NodeRoom& node) const {
  if (node.unschedulable && !tolerates({"node.kubernetes.io/unschedulable", "", "NoSchedule"}))
    return "node(s) were unschedulable";
  std::vector<NodeTaint> taints = node.taints;
  if (!node.ready) taints.insert(taints.begin(), {"node.kubernetes.io/not-ready", "", "NoSchedule"});
  for (const auto& t : taints)
    if (!tolerates(t)) return "node(s) had untolerated taint {" + t.key + ": " + t.value + "}";
  if (!affinity_matches(node)) return "node(s) didn't match Pod's node affinity/selector";
  return "";
}

std::string NodeChoices::of(const json& pod) {
  const PodPlacement placement(pod);
  auto [it, added] = m_by_key.try_emplace(placement.key());
  if (added)
    for (const auto& n : m_nodes) {
      const std::string why = placement.refusal(n);
      it->second.may.push_back(why.empty());
      if (!why.empty()) ++it->second.refusals[why];
    }
  return placement.key();
}

std::string NodeChoice::refusal_text() const {
  std::vector<std::pair<std::string, long long>> by_count(refusals.begin(), refusals.end());
  std::stable_sort(by_count.begin(), by_count.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string text;
  for (const auto& [why, n] : by_count) text += (text.empty() ? "" : ", ") + std::to_string(n) + " " + why;
  return text;
}

}  // namespace trainctl::jobs
