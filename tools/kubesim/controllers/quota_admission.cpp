#include "kubesim/controllers/quota_admission.h"

#include "kubesim/controllers/context.h"
#include "kubesim/controllers/pod_status.h"

namespace kubesim {

namespace {

bool is_cpu(const std::string& resource) {
  return resource == "cpu" || resource == "requests.cpu" || resource == "limits.cpu";
}

int64_t quota_amount_of(const std::string& resource, const json& q) {
  return resource == "cpu" ? parse_cpu_milli(q) : parse_quantity(q);
}

// prettyPrint: sorted names, "name=quantity" joined by ",".
std::string pretty(const QuotaUsage& usage) {
  std::string out;
  for (const auto& [name, v] : usage) out += (out.empty() ? "" : ",") + name + "=" + quota_quantity(name, v);
  return out;
}

}  // namespace

QuotaUsage pod_quota_usage(const json& pod) {
  QuotaUsage u{{"pods", 1}, {"count/pods", 1}};
  const auto& spec = pod.value("spec", json::object());
  for (const auto& c : spec.value("containers", json::array())) {
    const auto& res = c.value("resources", json::object());
    const auto& req = res.value("requests", json::object());
    const auto& lim = res.value("limits", json::object());
    for (auto it = lim.begin(); it != lim.end(); ++it)
      if (it.key() == "cpu" || it.key() == "memory") u["limits." + it.key()] += quota_amount_of(it.key(), *it);
    json requests = lim.is_object() ? lim : json::object();  // requests default to limits
    for (auto it = req.begin(); it != req.end(); ++it) requests[it.key()] = *it;
    for (auto it = requests.begin(); it != requests.end(); ++it) {
      const int64_t v = quota_amount_of(it.key(), *it);
      u["requests." + it.key()] += v;
      if (it.key() == "cpu" || it.key() == "memory") u[it.key()] += v;
    }
  }
  return u;
}

std::string quota_quantity(const std::string& resource, int64_t amount) {
  if (is_cpu(resource))
    return amount % 1000 == 0 ? std::to_string(amount / 1000) : std::to_string(amount) + "m";
  if (amount != 0 && resource.find("memory") != std::string::npos)
    for (const auto& [suffix, unit] : {std::pair<const char*, int64_t>{"Ti", 1LL << 40},
                                       {"Gi", 1LL << 30},
                                       {"Mi", 1LL << 20},
                                       {"Ki", 1LL << 10}})
      if (amount % unit == 0) return std::to_string(amount / unit) + suffix;
  return std::to_string(amount);
}

void admit_pod_quota(const Store& store, const ResourceType& pods, const ResourceType& quotas,
                     const json& pod) {
  const std::string ns = meta_ns(pod).empty() ? "default" : meta_ns(pod);
  const auto list = store.list(quotas, ns);
  if (list.items.empty()) return;
  const QuotaUsage delta = pod_quota_usage(pod);
  QuotaUsage used;
  bool summed = false;
  for (const auto& q : list.items) {
    const json& spec = q->value("spec", json::object());
    if (spec.contains("scopes") || spec.contains("scopeSelector")) continue;
    const json& hard_json = spec.value("hard", json::object());
    QuotaUsage hard, requested;
    for (auto it = hard_json.begin(); it != hard_json.end(); ++it) {
      hard[it.key()] = is_cpu(it.key()) ? parse_cpu_milli(*it) : parse_quantity(*it);
      auto d = delta.find(it.key());
      if (d != delta.end() && d->second != 0) requested[it.key()] = d->second;
    }
    if (requested.empty()) continue;
    if (!summed) {
      for (const auto& p : store.list(pods, ns).items)
        if (!pod_terminal(*p))
          for (const auto& [name, v] : pod_quota_usage(*p)) used[name] += v;
      summed = true;
    }
    QuotaUsage failed_req, failed_used, failed_hard;
    for (const auto& [name, v] : requested) {
      const int64_t u = used.count(name) ? used[name] : 0;
      if (u + v <= hard[name]) continue;
      failed_req[name] = v;
      failed_used[name] = u;
      failed_hard[name] = hard[name];
    }
    if (failed_req.empty()) continue;
    const std::string name = meta_name(pod);
    throw StatusError(403, "Forbidden",
                      "pods \"" + name + "\" is forbidden: exceeded quota: " + meta_name(*q) +
                          ", requested: " + pretty(failed_req) + ", used: " + pretty(failed_used) +
                          ", limited: " + pretty(failed_hard),
                      {{"name", name}, {"kind", "pods"}});
  }
}

}  // namespace kubesim
