// Shared controller helpers: time formatting, quantities, owner references, safe writes.
#include "kubesim/controllers/context.h"

#include <openssl/evp.h>

#include <cctype>
#include <cmath>
#include <cstdio>

#include "kubesim/builtin_types.h"
#include "kubesim/controllers/quota_admission.h"

namespace kubesim {

Context::Context(Store& s, LogStore& l, SimulationOptions o)
    : store(s), logs(l), options(std::move(o)), rng(options.random_seed) {
  struct Served {
    const ResourceType* Context::*member;
    const char *group, *version, *plural;
  };
  static constexpr Served kServed[] = {
      {&Context::pods, "", "v1", "pods"},
      {&Context::nodes, "", "v1", "nodes"},
      {&Context::services, "", "v1", "services"},
      {&Context::configmaps, "", "v1", "configmaps"},
      {&Context::events, "", "v1", "events"},
      {&Context::jobs, "batch", "v1", "jobs"},
      {&Context::deployments, "apps", "v1", "deployments"},
      {&Context::replicasets, "apps", "v1", "replicasets"},
      {&Context::pytorchjobs, "kubeflow.org", "v1", "pytorchjobs"},
      {&Context::tfjobs, "kubeflow.org", "v1", "tfjobs"},
      {&Context::mpijobs, "kubeflow.org", "v2beta1", "mpijobs"},
      {&Context::vcjobs, "batch.volcano.sh", "v1alpha1", "jobs"},
      {&Context::podgroups, "scheduling.volcano.sh", "v1beta1", "podgroups"},
      {&Context::queues, "scheduling.volcano.sh", "v1beta1", "queues"},
      {&Context::commands, "bus.volcano.sh", "v1alpha1", "commands"},
  };
  for (const Served& r : kServed) this->*r.member = store.find(r.group, r.version, r.plural);
  // ResourceQuota admission of pod creates, whoever creates them (REST or a controller).
  const ResourceType* quotas = store.find("", "v1", "resourcequotas");
  if (pods && quotas)
    store.set_create_admission([&st = store, p = pods, quotas](const ResourceType& rt, const json& obj) {
      if (&rt == p) admit_pod_quota(st, *p, *quotas, obj);
    });
}

std::string Context::now_str() const { return format_rfc3339(now()); }

std::string Context::random_suffix(size_t n) {
  static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
  std::string s;
  for (size_t i = 0; i < n; ++i) s += alphabet[rng() % (sizeof(alphabet) - 1)];
  return s;
}

bool Context::patch(const ResourceType& rt, const std::string& ns, const std::string& name,
                    const std::function<void(json&)>& fn) {
  auto r = store.mutate(rt, ns, name, [&](json& obj) {
    json before = obj;
    fn(obj);
    return obj != before;
  });
  return r.has_value();
}

json Context::create_pod(const json& owner, json pod, const std::string& reason, const std::string& prefix,
                         const std::string& component) {
  try {
    return create_if_absent(*pods, std::move(pod));
  } catch (const StatusError& e) {
    if (e.code != 403) throw;
    record_event(owner, "Warning", reason, prefix + e.message + (prefix.back() == '[' ? "]" : ""), component);
    return nullptr;
  }
}

json Context::create_if_absent(const ResourceType& rt, json obj) {
  const std::string ns = obj["metadata"].value("namespace", "");
  const std::string name = obj["metadata"].value("name", "");
  if (auto existing = store.get(rt, ns, name)) return *existing;
  try {
    return store.create(rt, std::move(obj));
  } catch (const StatusError& e) {
    if (e.code == 409) {
      if (auto existing = store.get(rt, ns, name)) return *existing;
    }
    throw;
  }
}

std::vector<std::shared_ptr<const json>> Context::list_labelled(
    const ResourceType& rt, const std::string& ns, const std::map<std::string, std::string>& selector) const {
  auto res = store.list(rt, ns, [&](const json& o) { return trainctl::object::labels_contain(o, selector); });
  return std::move(res.items);
}

void Context::record_event(const json& obj, const std::string& type, const std::string& reason,
                           const std::string& message, const std::string& component) {
  if (!events) return;
  const std::string ns = meta_ns(obj).empty() ? "default" : meta_ns(obj);
  const std::string uid = meta_uid(obj);
  const std::string ts = now_str();
  // An existing event with the same object, reason and message gets its count bumped.
  const std::string dedup = uid + "\n" + reason + "\n" + message;
  {
    std::lock_guard<std::mutex> lock(m_events_mutex);
    auto it = m_event_names.find(dedup);
    if (it != m_event_names.end()) {
      const bool bumped = patch(*events, ns, it->second, [&](json& ev) {
        ev["count"] = ev.value("count", 1) + 1;
        ev["lastTimestamp"] = ts;
      });
      if (bumped) return;
      m_event_names.erase(it);
    }
  }
  char hex[32];
  auto nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(now().time_since_epoch()).count();
  std::snprintf(hex, sizeof hex, "%llx", static_cast<unsigned long long>(nanos + (rng() % 1000000)));
  json io = {{"kind", obj.value("kind", "")},
             {"apiVersion", obj.value("apiVersion", "")},
             {"name", meta_name(obj)},
             {"uid", uid},
             {"resourceVersion", obj["metadata"].value("resourceVersion", "")}};
  if (!meta_ns(obj).empty()) io["namespace"] = meta_ns(obj);
  json ev = {{"apiVersion", "v1"},
             {"kind", "Event"},
             {"metadata", {{"name", meta_name(obj) + "." + hex}, {"namespace", ns}}},
             {"involvedObject", io},
             {"reason", reason},
             {"message", message},
             {"type", type},
             {"source", {{"component", component}}},
             {"firstTimestamp", ts},
             {"lastTimestamp", ts},
             {"count", 1},
             {"reportingComponent", component},
             {"reportingInstance", ""}};
  try {
    const std::string event_name = ev["metadata"]["name"];
    store.create(*events, std::move(ev));
    std::lock_guard<std::mutex> lock(m_events_mutex);
    if (m_event_names.size() > 100000) m_event_names.clear();
    m_event_names[dedup] = event_name;
  } catch (const StatusError&) {
    // The namespace may be gone; events are best effort, as in a real cluster.
  }
}

TimePoint parse_time(const std::string& s) { return parse_rfc3339(s).value_or(TimePoint{}); }

std::chrono::milliseconds parse_sim_duration(const std::string& s, std::chrono::milliseconds fallback) {
  if (s.empty()) return fallback;
  double total_ms = 0;
  size_t i = 0;
  bool any = false;
  while (i < s.size()) {
    size_t j = i;
    while (j < s.size() && (std::isdigit(static_cast<unsigned char>(s[j])) || s[j] == '.')) ++j;
    if (j == i) return fallback;
    double v = std::atof(s.substr(i, j - i).c_str());
    size_t k = j;
    while (k < s.size() && std::isalpha(static_cast<unsigned char>(s[k]))) ++k;
    std::string unit = s.substr(j, k - j);
    if (unit == "ms")
      total_ms += v;
    else if (unit == "s" || unit.empty())
      total_ms += v * 1000;
    else if (unit == "m")
      total_ms += v * 60'000;
    else if (unit == "h")
      total_ms += v * 3'600'000;
    else
      return fallback;
    any = true;
    i = k;
  }
  if (!any) return fallback;
  return std::chrono::milliseconds(static_cast<int64_t>(std::llround(total_ms)));
}

json owned_object(const std::string& api_version, const std::string& kind, const json& owner, json metadata) {
  metadata["namespace"] = meta_ns(owner);
  metadata["ownerReferences"] = json::array({owner_reference(owner)});
  return {{"apiVersion", api_version}, {"kind", kind}, {"metadata", std::move(metadata)}};
}

int64_t int_or(const json& v, const std::string& key, int64_t fallback) {
  if (!v.is_object()) return fallback;
  auto it = v.find(key);
  if (it == v.end()) return fallback;
  if (it->is_number_integer()) return it->get<int64_t>();
  if (it->is_number()) return static_cast<int64_t>(it->get<double>());
  if (it->is_string()) {
    try {
      return std::stoll(it->get<std::string>());
    } catch (...) {
      return fallback;
    }
  }
  return fallback;
}

namespace {
double quantity_value(const json& q) {
  if (q.is_number()) return q.get<double>();
  if (!q.is_string()) return 0;
  const std::string s = q.get<std::string>();
  size_t i = 0;
  while (i < s.size() &&
         (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.' || s[i] == '-' || s[i] == '+'))
    ++i;
  double v = std::atof(s.substr(0, i).c_str());
  std::string suf = s.substr(i);
  static const std::map<std::string, double> mult = {{"", 1},
                                                     {"m", 1e-3},
                                                     {"k", 1e3},
                                                     {"M", 1e6},
                                                     {"G", 1e9},
                                                     {"T", 1e12},
                                                     {"P", 1e15},
                                                     {"Ki", 1024.0},
                                                     {"Mi", 1048576.0},
                                                     {"Gi", 1073741824.0},
                                                     {"Ti", 1099511627776.0},
                                                     {"Pi", 1125899906842624.0}};
  auto it = mult.find(suf);
  return it == mult.end() ? v : v * it->second;
}
}  // namespace

int64_t parse_cpu_milli(const json& q) {
  return static_cast<int64_t>(std::llround(quantity_value(q) * 1000));
}
int64_t parse_quantity(const json& q) { return static_cast<int64_t>(std::llround(quantity_value(q))); }

std::string sha1_hex(const std::string& s) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_Digest(s.data(), s.size(), md, &n, EVP_sha1(), nullptr);
  std::string out;
  char buf[3];
  for (unsigned int i = 0; i < n; ++i) {
    std::snprintf(buf, sizeof buf, "%02x", md[i]);
    out += buf;
  }
  return out;
}

void inherit_sim_annotations(const json& job, json& pod_metadata) {
  for (const char* key :
       {kOutcomeAnnotation, kDurationAnnotation, kGpuProfileAnnotation, kGpuMemoryAnnotation}) {
    std::string v = annotation(job, key);
    if (v.empty()) continue;
    if (!pod_metadata.contains("annotations") || !pod_metadata["annotations"].is_object())
      pod_metadata["annotations"] = json::object();
    if (!pod_metadata["annotations"].contains(key)) pod_metadata["annotations"][key] = v;
  }
}

}  // namespace kubesim
