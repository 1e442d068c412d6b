#include "kubesim/selectable_fields.h"

#include "kubesim/store.h"

namespace kubesim {

using nlohmann::json;

namespace {

enum class SelectKind { Other, Pod, Event, Node, Secret, Namespace, BatchJob };

SelectKind select_kind(const ResourceType& rt) {
  if (rt.group == "batch" && rt.kind == "Job") return SelectKind::BatchJob;
  if (!rt.group.empty()) return SelectKind::Other;
  if (rt.kind == "Pod") return SelectKind::Pod;
  if (rt.kind == "Event") return SelectKind::Event;
  if (rt.kind == "Node") return SelectKind::Node;
  if (rt.kind == "Secret") return SelectKind::Secret;
  if (rt.kind == "Namespace") return SelectKind::Namespace;
  return SelectKind::Other;
}

// The node at a dotted path, or nullptr.
const json* at(const json& obj, std::initializer_list<const char*> path) {
  const json* cur = &obj;
  for (const char* part : path) {
    if (!cur->is_object()) return nullptr;
    const auto it = cur->find(part);
    if (it == cur->end()) return nullptr;
    cur = &*it;
  }
  return cur;
}

// A string field's value ("" when absent or null; other JSON as written).
std::string text(const json& obj, std::initializer_list<const char*> path) {
  const json* v = at(obj, path);
  if (!v || v->is_null()) return "";
  return v->is_string() ? v->get<std::string>() : v->dump();
}

// A Go bool field as strconv.FormatBool writes it (false when absent).
std::string flag(const json& obj, std::initializer_list<const char*> path) {
  const json* v = at(obj, path);
  return v && v->is_boolean() && v->get<bool>() ? "true" : "false";
}

}  // namespace

const std::vector<std::string>& selectable_fields(const ResourceType& rt) {
  static const std::vector<std::string> meta = {"metadata.name", "metadata.namespace"};
  static const std::vector<std::string> pod = {
      "metadata.name",      "metadata.namespace",      "spec.nodeName",
      "spec.restartPolicy", "spec.schedulerName",      "spec.serviceAccountName",
      "spec.hostNetwork",   "status.phase",            "status.podIP",
      "status.nominatedNodeName"};
  static const std::vector<std::string> event = {
      "metadata.name",         "metadata.namespace",       "involvedObject.kind",
      "involvedObject.namespace", "involvedObject.name",   "involvedObject.uid",
      "involvedObject.apiVersion", "involvedObject.resourceVersion", "involvedObject.fieldPath",
      "reason",                "reportingComponent",       "source",
      "type"};
  static const std::vector<std::string> node = {"metadata.name", "metadata.namespace", "spec.unschedulable"};
  static const std::vector<std::string> secret = {"metadata.name", "metadata.namespace", "type"};
  static const std::vector<std::string> ns = {"metadata.name", "metadata.namespace", "status.phase"};
  static const std::vector<std::string> job = {"metadata.name", "metadata.namespace", "status.successful"};
  switch (select_kind(rt)) {
    case SelectKind::Pod: return pod;
    case SelectKind::Event: return event;
    case SelectKind::Node: return node;
    case SelectKind::Secret: return secret;
    case SelectKind::Namespace: return ns;
    case SelectKind::BatchJob: return job;
    case SelectKind::Other: break;
  }
  return meta;
}

FieldValues selectable_values(const ResourceType& rt, const json& obj) {
  FieldValues v;
  v.add(text(obj, {"metadata", "name"}));
  v.add(text(obj, {"metadata", "namespace"}));
  switch (select_kind(rt)) {
    case SelectKind::Pod: {
      v.add(text(obj, {"spec", "nodeName"}));
      v.add(text(obj, {"spec", "restartPolicy"}));
      v.add(text(obj, {"spec", "schedulerName"}));
      v.add(text(obj, {"spec", "serviceAccountName"}));
      v.add(flag(obj, {"spec", "hostNetwork"}));
      v.add(text(obj, {"status", "phase"}));
      const json* ips = at(obj, {"status", "podIPs"});
      v.add(ips && ips->is_array() && !ips->empty() ? text((*ips)[0], {"ip"}) : "");
      v.add(text(obj, {"status", "nominatedNodeName"}));
      break;
    }
    case SelectKind::Event: {
      for (const char* f : {"kind", "namespace", "name", "uid", "apiVersion", "resourceVersion", "fieldPath"})
        v.add(text(obj, {"involvedObject", f}));
      v.add(text(obj, {"reason"}));
      const std::string reporting = text(obj, {"reportingComponent"});
      v.add(reporting);
      const std::string source = text(obj, {"source", "component"});
      v.add(source.empty() ? reporting : source);
      v.add(text(obj, {"type"}));
      break;
    }
    case SelectKind::Node: v.add(flag(obj, {"spec", "unschedulable"})); break;
    case SelectKind::Secret: v.add(text(obj, {"type"})); break;
    case SelectKind::Namespace: v.add(text(obj, {"status", "phase"})); break;
    case SelectKind::BatchJob: {
      const json* n = at(obj, {"status", "succeeded"});
      v.add(std::to_string(n && n->is_number_integer() ? n->get<int64_t>() : 0));
      break;
    }
    case SelectKind::Other: break;
  }
  return v;
}

}  // namespace kubesim
