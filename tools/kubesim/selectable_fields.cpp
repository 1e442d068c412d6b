#include "kubesim/selectable_fields.h"

#include "kubesim/store.h"

namespace kubesim {

using nlohmann::json;

namespace {

// The JSON at a dotted path of obj, or nullptr.
const json* at_path(const json& obj, std::string_view dotted) {
  const json* cur = &obj;
  while (cur) {
    const size_t dot = dotted.find('.');
    const std::string part(dotted.substr(0, dot));
    const auto it = cur->is_object() ? cur->find(part) : cur->end();
    cur = cur->is_object() && it != cur->end() ? &*it : nullptr;
    if (dot == std::string_view::npos) break;
    dotted.remove_prefix(dot + 1);
  }
  return cur;
}

// A string field's value ("" when absent or null; other JSON as written).
std::string text_at(const json& obj, std::string_view dotted) {
  const json* v = at_path(obj, dotted);
  if (!v || v->is_null()) return "";
  return v->is_string() ? v->get<std::string>() : v->dump();
}

// A Go bool field as strconv.FormatBool writes it (false when absent).
std::string flag_at(const json& obj, std::string_view dotted) {
  const json* v = at_path(obj, dotted);
  return v && v->is_boolean() && v->get<bool>() ? "true" : "false";
}

// A field whose value is not simply the string at its path.
using Special = std::string (*)(const json&);

std::string host_network(const json& pod) { return flag_at(pod, "spec.hostNetwork"); }
std::string pod_ip(const json& pod) {
  const json* ips = at_path(pod, "status.podIPs");
  return ips && ips->is_array() && !ips->empty() ? text_at((*ips)[0], "ip") : "";
}
std::string event_source(const json& event) {
  const std::string source = text_at(event, "source.component");
  return source.empty() ? text_at(event, "reportingComponent") : source;
}
std::string unschedulable(const json& node) { return flag_at(node, "spec.unschedulable"); }
std::string job_successful(const json& job) {
  const json* n = at_path(job, "status.succeeded");
  return std::to_string(n && n->is_number_integer() ? n->get<int64_t>() : 0);
}

struct Field {
  const char* path;
  Special special = nullptr;  // nullptr: the string at path
};

// A kind's fields: metadata.name and metadata.namespace, then its own.
struct KindFields {
  std::vector<Field> fields;
  std::vector<std::string> paths;
  KindFields(std::initializer_list<Field> own) : fields{{"metadata.name"}, {"metadata.namespace"}} {
    fields.insert(fields.end(), own);
    for (const auto& f : fields) paths.emplace_back(f.path);
  }
};

const KindFields& kind_fields(const ResourceType& rt) {
  static const KindFields other({});
  static const KindFields pod({{"spec.nodeName"},
                               {"spec.restartPolicy"},
                               {"spec.schedulerName"},
                               {"spec.serviceAccountName"},
                               {"spec.hostNetwork", host_network},
                               {"status.phase"},
                               {"status.podIP", pod_ip},
                               {"status.nominatedNodeName"}});
  static const KindFields event({{"involvedObject.kind"},
                                 {"involvedObject.namespace"},
                                 {"involvedObject.name"},
                                 {"involvedObject.uid"},
                                 {"involvedObject.apiVersion"},
                                 {"involvedObject.resourceVersion"},
                                 {"involvedObject.fieldPath"},
                                 {"reason"},
                                 {"reportingComponent"},
                                 {"source", event_source},
                                 {"type"}});
  static const KindFields node({{"spec.unschedulable", unschedulable}});
  static const KindFields secret({{"type"}});
  static const KindFields namespace_({{"status.phase"}});
  static const KindFields batch_job({{"status.successful", job_successful}});
  if (rt.group == "batch" && rt.kind == "Job") return batch_job;
  if (!rt.group.empty()) return other;
  if (rt.kind == "Pod") return pod;
  if (rt.kind == "Event") return event;
  if (rt.kind == "Node") return node;
  if (rt.kind == "Secret") return secret;
  if (rt.kind == "Namespace") return namespace_;
  return other;
}

}  // namespace

const std::vector<std::string>& selectable_fields(const ResourceType& rt) { return kind_fields(rt).paths; }

FieldValues selectable_values(const ResourceType& rt, const json& obj) {
  FieldValues v;
  for (const auto& f : kind_fields(rt).fields) v.add(f.special ? f.special(obj) : text_at(obj, f.path));
  return v;
}

}  // namespace kubesim
