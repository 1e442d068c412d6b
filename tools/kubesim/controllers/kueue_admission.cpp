// Kueue's admission and queue status, one flavor per resource (see kueue.h).
#include <map>

#include "kubesim/controllers/kueue.h"

namespace kubesim {

namespace {

using Amounts = std::map<std::string, int64_t>;  // resource -> amount (cpu in millicores)

int64_t amount_of(const std::string& resource, const json& q) {
  return resource == "cpu" ? parse_cpu_milli(q) : parse_quantity(q);
}

std::string quantity_text(const std::string& resource, int64_t v) {
  if (resource == "cpu" && v % 1000 != 0) return std::to_string(v) + "m";
  return std::to_string(resource == "cpu" ? v / 1000 : v);
}

// The requests of one pod (workload.Info: containers' requests, limits where no request;
// the init containers' largest when larger).
Amounts pod_requests(const json& pod_spec) {
  auto of = [](const json& containers) {
    std::vector<Amounts> out;
    for (const auto& c : containers) {
      Amounts a;
      const json res = c.value("resources", json::object());
      for (const char* part : {"limits", "requests"}) {
        const json amounts = res.value(part, json::object());  // items() refers to it
        for (const auto& [r, q] : amounts.items()) a[r] = amount_of(r, q);
      }
      out.push_back(a);
    }
    return out;
  };
  Amounts total;
  for (const auto& a : of(pod_spec.value("containers", json::array())))
    for (const auto& [r, v] : a) total[r] += v;
  for (const auto& a : of(pod_spec.value("initContainers", json::array())))
    for (const auto& [r, v] : a) total[r] = std::max(total[r], v);
  return total;
}

struct PodSetUsage {
  std::string name;
  int64_t count = 0;
  Amounts total;
};

std::vector<PodSetUsage> workload_usage(const json& wl) {
  std::vector<PodSetUsage> out;
  for (const auto& ps : wl.value("spec", json::object()).value("podSets", json::array())) {
    PodSetUsage u{ps.value("name", "main"), int_or(ps, "count", 1), {}};
    const json pod_spec = ps.value("template", json::object()).value("spec", json::object());
    for (const auto& [r, v] : pod_requests(pod_spec))
      u.total[r] = v * u.count;
    out.push_back(u);
  }
  return out;
}

struct Quota {
  std::map<std::string, std::string> flavor;  // resource -> the flavor that covers it (the first)
  Amounts nominal, used;
  std::vector<std::pair<std::string, std::vector<std::string>>> flavors;  // flavor -> resources, in spec order
};

Quota quota_of(const json& cq) {
  Quota q;
  for (const auto& rg : cq.value("spec", json::object()).value("resourceGroups", json::array()))
    for (const auto& fl : rg.value("flavors", json::array())) {
      std::vector<std::string> resources;
      for (const auto& r : fl.value("resources", json::array())) {
        const std::string name = r.value("name", "");
        resources.push_back(name);
        if (q.flavor.count(name)) continue;
        q.flavor[name] = fl.value("name", "");
        q.nominal[name] = amount_of(name, r.value("nominalQuota", json(0)));
      }
      q.flavors.emplace_back(fl.value("name", ""), resources);
    }
  return q;
}

// "" when the workload fits, else why not (the scheduler's flavor assigner message).
std::string misfit(const Quota& q, const std::vector<PodSetUsage>& usage) {
  Amounts need;
  for (const auto& ps : usage)
    for (const auto& [r, v] : ps.total) need[r] += v;
  for (const auto& [r, v] : need) {
    if (v == 0) continue;
    auto f = q.flavor.find(r);
    const std::string ps = usage.empty() ? "main" : usage.front().name;
    if (f == q.flavor.end())
      return "couldn't assign flavors to pod set " + ps + ": resource " + r + " unavailable in ClusterQueue";
    const int64_t left = q.nominal.at(r) - (q.used.count(r) ? q.used.at(r) : 0);
    if (v > left)
      return "couldn't assign flavors to pod set " + ps + ": insufficient unused quota for " + r + " in flavor " +
             f->second + ", " + quantity_text(r, v - left) + " more needed";
  }
  return "";
}

json assignments(const Quota& q, const std::vector<PodSetUsage>& usage) {
  json out = json::array();
  for (const auto& ps : usage) {
    json flavors = json::object(), used = json::object();
    for (const auto& [r, v] : ps.total) {
      if (!q.flavor.count(r)) continue;
      flavors[r] = q.flavor.at(r);
      used[r] = quantity_text(r, v);
    }
    out.push_back({{"name", ps.name}, {"flavors", flavors}, {"resourceUsage", used}, {"count", ps.count}});
  }
  return out;
}

json flavors_usage(const Quota& q, const Amounts& used, bool borrowed) {
  json out = json::array();
  for (const auto& [flavor, resources] : q.flavors) {
    json rs = json::array();
    for (const auto& r : resources) {
      const int64_t v = q.flavor.at(r) == flavor && used.count(r) ? used.at(r) : 0;
      json e = {{"name", r}, {"total", quantity_text(r, v)}};
      if (borrowed) e["borrowed"] = "0";
      rs.push_back(e);
    }
    out.push_back({{"name", flavor}, {"resources", rs}});
  }
  return out;
}

struct Counts {
  int64_t pending = 0, reserving = 0, admitted = 0;
  Amounts used;
};

void write_queue_status(Context& ctx, const ResourceType& rt, const json& obj, const Counts& c, const Quota& q,
                        const std::string& active_reason, const std::string& active_message, bool cluster) {
  ctx.patch(rt, meta_ns(obj), meta_name(obj), [&](json& o) {
    json& st = o["status"];
    if (!st.is_object()) st = json::object();
    st["pendingWorkloads"] = c.pending;
    st["reservingWorkloads"] = c.reserving;
    st["admittedWorkloads"] = c.admitted;
    st["flavorsReservation"] = flavors_usage(q, c.used, cluster);
    st["flavorsUsage"] = flavors_usage(q, c.used, cluster);
    kueue_set_condition(st, "Active", active_reason == "Ready", active_reason, active_message, ctx.now_str());
  });
}

}  // namespace

void kueue_admit(Context& ctx, const KueueTypes& t) {
  if (!t.served()) return;
  const std::string now = ctx.now_str();
  std::map<std::string, Counts> by_cq, by_lq;  // cq name; ns/lq name
  std::map<std::string, Quota> quotas;
  std::map<std::string, std::string> missing_flavor;
  for (const auto& cq : ctx.store.list(*t.cluster_queues, "").items) {
    Quota q = quota_of(*cq);
    if (t.resource_flavors)
      for (const auto& [flavor, resources] : q.flavors)
        if (!ctx.store.get_shared(*t.resource_flavors, "", flavor)) missing_flavor[meta_name(*cq)] = flavor;
    quotas[meta_name(*cq)] = q;
  }
  // What admitted (quota-reserving, unfinished) workloads use.
  const auto workloads = ctx.store.list(*t.workloads, "").items;
  for (const auto& w : workloads) {
    const std::string cq = kueue_cluster_queue_of(ctx.store, t, *w);
    const std::string lq = meta_ns(*w) + "/" + (*w)["spec"].value("queueName", "");
    if (condition_true(*w, "Finished")) continue;
    if (!condition_true(*w, "QuotaReserved")) continue;
    const std::string reserved_in = (*w)["status"].value("admission", json::object()).value("clusterQueue", cq);
    for (const auto& ps : workload_usage(*w))
      for (const auto& [r, v] : ps.total) {
        if (quotas.count(reserved_in)) quotas[reserved_in].used[r] += v;
        by_cq[reserved_in].used[r] += v;
        by_lq[lq].used[r] += v;
      }
    for (Counts* c : {&by_cq[reserved_in], &by_lq[lq]}) {
      ++c->reserving;
      if (condition_true(*w, "Admitted")) ++c->admitted;
    }
  }
  for (auto& entry : quotas) {
    // Named, not bound: lambdas below capture them (clang before 16 cannot capture bindings).
    const auto& cq_name = entry.first;
    auto& q = entry.second;
    const bool strict = [&] {
      auto cq = ctx.store.get_shared(*t.cluster_queues, "", cq_name);
      return cq && (*cq)["spec"].value("queueingStrategy", "BestEffortFIFO") == "StrictFIFO";
    }();
    bool blocked = missing_flavor.count(cq_name) > 0;
    for (const auto& w : kueue_pending_workloads(ctx.store, t, cq_name)) {
      const auto usage = workload_usage(*w);
      const std::string why = blocked ? "" : misfit(q, usage);
      const std::string lq = meta_ns(*w) + "/" + (*w)["spec"].value("queueName", "");
      if (blocked || !why.empty()) {
        ++by_cq[cq_name].pending;
        ++by_lq[lq].pending;
        if (!why.empty())
          ctx.patch(*t.workloads, meta_ns(*w), meta_name(*w), [&](json& o) {
            kueue_set_condition(o["status"], "QuotaReserved", false, "Pending", why, now);
          });
        if (strict) blocked = true;
        continue;
      }
      for (const auto& ps : usage)
        for (const auto& [r, v] : ps.total) {
          q.used[r] += v;
          by_cq[cq_name].used[r] += v;
          by_lq[lq].used[r] += v;
        }
      for (Counts* c : {&by_cq[cq_name], &by_lq[lq]}) {
        ++c->reserving;
        ++c->admitted;
      }
      ctx.patch(*t.workloads, meta_ns(*w), meta_name(*w), [&](json& o) {
        json& st = o["status"];
        if (!st.is_object()) st = json::object();
        st["admission"] = {{"clusterQueue", cq_name}, {"podSetAssignments", assignments(q, usage)}};
        kueue_set_condition(st, "QuotaReserved", true, "QuotaReserved", "Quota reserved in ClusterQueue " + cq_name,
                            now);
        kueue_set_condition(st, "Admitted", true, "Admitted", "The workload is admitted", now);
      });
    }
  }
  // Workloads whose LocalQueue or ClusterQueue is missing stay pending in their LocalQueue.
  for (const auto& w : workloads)
    if (kueue_workload_pending(*w) && !quotas.count(kueue_cluster_queue_of(ctx.store, t, *w)))
      ++by_lq[meta_ns(*w) + "/" + (*w)["spec"].value("queueName", "")].pending;
  for (const auto& cq : ctx.store.list(*t.cluster_queues, "").items) {
    const std::string n = meta_name(*cq);
    const bool missing = missing_flavor.count(n) > 0;
    write_queue_status(ctx, *t.cluster_queues, *cq, by_cq[n], quotas[n], missing ? "FlavorNotFound" : "Ready",
                       missing ? "Can't admit new workloads: references missing ResourceFlavor(s): " +
                                     missing_flavor[n] + "."
                               : "Can admit new workloads",
                       true);
  }
  for (const auto& lq : ctx.store.list(*t.local_queues, "").items) {
    const std::string cq = (*lq)["spec"].value("clusterQueue", "");
    const bool exists = quotas.count(cq) > 0;
    write_queue_status(ctx, *t.local_queues, *lq, by_lq[meta_ns(*lq) + "/" + meta_name(*lq)],
                       exists ? quotas[cq] : Quota{}, exists ? "Ready" : "ClusterQueueDoesNotExist",
                       exists ? "Can submit new workloads to localQueue" : "Can't submit new workloads to clusterQueue",
                       false);
  }
}

KueueQueueController::KueueQueueController(Context& ctx, const ResourceType* primary)
    : Controller(ctx, KueueTypes::find(ctx.store).served() ? primary : nullptr),
      m_kueue(KueueTypes::find(ctx.store)) {}

void KueueQueueController::reconcile(const std::string&, const std::string&) { kueue_admit(m_ctx, m_kueue); }

}  // namespace kubesim
