// Gang-aware scheduling of pending pods onto simulated nodes.
#include "kubesim/controllers/scheduler.h"

#include <algorithm>
#include <vector>

#include "kubesim/controllers/pod_status.h"

namespace kubesim {

namespace {

const char* const kCounted[] = {"nvidia.com/gpu", "aliyun.com/gpu", "cpu", "memory"};

int64_t amount(const std::string& res, const json& q) {
  return res == "cpu" ? parse_cpu_milli(q) : parse_quantity(q);
}

bool tolerates(const json& tolerations, const json& taint) {
  if (!tolerations.is_array()) return false;
  for (const auto& t : tolerations) {
    const std::string effect = t.value("effect", "");
    if (!effect.empty() && effect != taint.value("effect", "")) continue;
    const std::string op = t.value("operator", "Equal");
    const std::string key = t.value("key", "");
    if (op == "Exists" && key.empty()) return true;
    if (key != taint.value("key", "")) continue;
    if (op == "Exists" || t.value("value", "") == taint.value("value", "")) return true;
  }
  return false;
}

}  // namespace

Resources pod_requests(const json& pod) {
  Resources r;
  const auto& spec = pod.value("spec", json::object());
  for (const auto& c : spec.value("containers", json::array())) {
    const auto& res = c.value("resources", json::object());
    const auto& req = res.value("requests", json::object());
    const auto& lim = res.value("limits", json::object());
    for (const char* name : kCounted) {
      if (req.contains(name))
        r[name] += amount(name, req[name]);
      else if (lim.contains(name))
        r[name] += amount(name, lim[name]);
    }
  }
  for (auto it = r.begin(); it != r.end();) it = it->second == 0 ? r.erase(it) : std::next(it);
  return r;
}

void Scheduler::observe(const WatchEvent& ev) {
  if (!ev.object) return;
  const json& obj = *ev.object;
  std::lock_guard<std::mutex> lock(m_mutex);
  if (ev.resource == m_ctx.nodes) {
    const std::string name = meta_name(obj);
    if (ev.type == EventType::Deleted) {
      m_nodes.erase(name);
      return;
    }
    NodeInfo n;
    n.name = name;
    const auto& st = obj.value("status", json::object());
    const auto& alloc = st.contains("allocatable") ? st["allocatable"] : st.value("capacity", json::object());
    for (const char* res : kCounted)
      if (alloc.contains(res)) n.allocatable[res] = amount(res, alloc[res]);
    for (const auto& a : st.value("addresses", json::array()))
      if (a.value("type", "") == "InternalIP") n.ip = a.value("address", "");
    if (const json& ready = trainctl::object::condition(obj, "Ready"); !ready.is_null())
      n.ready = ready.value("status", "") == "True";  // no Ready condition: ready
    const auto& labels = obj["metadata"].value("labels", json::object());
    for (auto it = labels.begin(); it != labels.end(); ++it)
      if (it->is_string()) n.labels[it.key()] = it->get<std::string>();
    const auto& spec = obj.value("spec", json::object());
    n.taints = spec.value("taints", json::array());
    n.unschedulable = spec.value("unschedulable", false);
    m_nodes[name] = std::move(n);
    return;
  }
  if (ev.resource != m_ctx.pods) return;
  const std::string ns = meta_ns(obj), name = meta_name(obj);
  const std::string key = ns + "/" + name;
  auto acc = m_accounted.find(key);
  if (acc != m_accounted.end()) {
    auto& used = m_used[acc->second.first];
    for (const auto& [res, v] : acc->second.second) used[res] -= v;
    m_accounted.erase(acc);
  }
  m_pending.erase({ns, name});
  if (ev.type == EventType::Deleted || pod_terminal(obj)) return;
  const std::string node = obj.value("spec", json::object()).value("nodeName", "");
  if (node.empty()) {
    // A pod being deleted is not scheduled (kube-scheduler's skipPodSchedule).
    if (!obj["metadata"].contains("deletionTimestamp")) m_pending.insert({ns, name});
    return;
  }
  Resources req = pod_requests(obj);
  auto& used = m_used[node];
  for (const auto& [res, v] : req) used[res] += v;
  m_accounted[key] = {node, std::move(req)};
}

bool Scheduler::has_pending() const {
  std::lock_guard<std::mutex> lock(m_mutex);
  return !m_pending.empty();
}

Scheduler::Placement Scheduler::place(const json& pod, std::map<std::string, Resources>& used) const {
  const auto& spec = pod.value("spec", json::object());
  const auto& selector = spec.value("nodeSelector", json::object());
  const auto& tolerations = spec.value("tolerations", json::array());
  const Resources req = pod_requests(pod);
  std::map<std::string, int> reasons;
  std::string best;
  int64_t best_free = 0;
  for (const auto& [name, n] : m_nodes) {
    if (n.unschedulable) {
      ++reasons["node(s) were unschedulable"];
      continue;
    }
    std::string taint_reason;
    if (!n.ready) taint_reason = "node(s) had untolerated taint {node.kubernetes.io/not-ready: }";
    for (const auto& t : n.taints) {
      if (!taint_reason.empty()) break;
      const std::string effect = t.value("effect", "");
      if ((effect == "NoSchedule" || effect == "NoExecute") && !tolerates(tolerations, t))
        taint_reason =
            "node(s) had untolerated taint {" + t.value("key", "") + ": " + t.value("value", "") + "}";
    }
    if (!taint_reason.empty()) {
      ++reasons[taint_reason];
      continue;
    }
    bool match = true;
    for (auto it = selector.begin(); it != selector.end(); ++it) {
      auto l = n.labels.find(it.key());
      if (l == n.labels.end() || !it->is_string() || l->second != it->get<std::string>()) match = false;
    }
    if (!match) {
      ++reasons["node(s) didn't match Pod's node affinity/selector"];
      continue;
    }
    bool fits = true;
    const Resources& u = used[name];
    for (const auto& [res, v] : req) {
      auto a = n.allocatable.find(res);
      const int64_t alloc = a == n.allocatable.end() ? 0 : a->second;
      auto ui = u.find(res);
      const int64_t in_use = ui == u.end() ? 0 : ui->second;
      if (in_use + v > alloc) {
        ++reasons["Insufficient " + res];
        fits = false;
      }
    }
    if (!fits) continue;
    // Bin-pack GPUs: prefer the node that keeps the fewest GPUs free; ties by name order.
    int64_t free = 0;
    for (const char* g : {"nvidia.com/gpu", "aliyun.com/gpu"}) {
      auto a = n.allocatable.find(g);
      auto ui = u.find(g);
      free += (a == n.allocatable.end() ? 0 : a->second) - (ui == u.end() ? 0 : ui->second);
    }
    if (best.empty() || free < best_free) {
      best = name;
      best_free = free;
    }
  }
  Placement p;
  if (!best.empty()) {
    for (const auto& [res, v] : req) used[best][res] += v;
    p.node = best;
    return p;
  }
  std::vector<std::string> parts;
  for (const auto& [reason, count] : reasons) parts.push_back(std::to_string(count) + " " + reason);
  std::sort(parts.begin(), parts.end());
  std::string msg = "0/" + std::to_string(m_nodes.size()) + " nodes are available";
  for (size_t i = 0; i < parts.size(); ++i) msg += (i == 0 ? ": " : ", ") + parts[i];
  p.failure = msg + ".";
  return p;
}

std::pair<std::string, int64_t> Scheduler::gang_of(const json& pod) const {
  const std::string ns = meta_ns(pod);
  const std::string group = annotation(pod, "scheduling.k8s.io/group-name");
  if (!group.empty()) {
    int64_t min = 1;
    if (m_ctx.podgroups)
      if (auto pg = m_ctx.store.get_shared(*m_ctx.podgroups, ns, group))
        min = int_or(pg->value("spec", json::object()), "minMember", 1);
    return {"a:" + ns + "/" + group, min};
  }
  const std::string lgroup = label(pod, "pod-group.scheduling.sigs.k8s.io/name");
  if (!lgroup.empty()) {
    int64_t min = 1;
    try {
      min = std::stoll(label(pod, "pod-group.scheduling.sigs.k8s.io/min-available"));
    } catch (...) {
    }
    return {"l:" + ns + "/" + lgroup, min};
  }
  return {"", 1};
}

int64_t Scheduler::bound_members(const json& pod, const std::string& gang) const {
  const std::string group = gang.substr(gang.find('/') + 1);
  const bool by_annotation = gang[0] == 'a';
  auto res = m_ctx.store.list(*m_ctx.pods, meta_ns(pod), [&](const json& p) {
    if (pod_terminal(p) || p.value("spec", json::object()).value("nodeName", "").empty()) return false;
    return by_annotation ? annotation(p, "scheduling.k8s.io/group-name") == group
                         : label(p, "pod-group.scheduling.sigs.k8s.io/name") == group;
  });
  return static_cast<int64_t>(res.items.size());
}

bool Scheduler::schedule() {
  std::vector<std::pair<std::string, std::string>> pending;
  std::map<std::string, Resources> used;
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    pending.assign(m_pending.begin(), m_pending.end());
    used = m_used;
  }
  if (pending.empty()) return false;
  // Group pending pods into gangs (a pod outside any gang is a gang of one).
  std::map<std::string, std::pair<int64_t, std::vector<std::shared_ptr<const json>>>> gangs;
  std::vector<std::string> order;
  for (const auto& [ns, name] : pending) {
    auto pod = m_ctx.store.get_shared(*m_ctx.pods, ns, name);
    if (!pod || pod_terminal(*pod) || !pod->value("spec", json::object()).value("nodeName", "").empty())
      continue;
    auto [gang, min] = gang_of(*pod);
    if (gang.empty()) gang = "p:" + ns + "/" + name;
    auto& g = gangs[gang];
    if (g.second.empty()) order.push_back(gang);
    g.first = min;
    g.second.push_back(pod);
  }
  bool bound = false;
  for (const auto& key : order) {
    auto& [min, pods] = gangs[key];
    std::sort(pods.begin(), pods.end(), [](const auto& a, const auto& b) {
      const std::string ta = (*a)["metadata"].value("creationTimestamp", ""),
                        tb = (*b)["metadata"].value("creationTimestamp", "");
      return ta != tb ? ta < tb : meta_name(*a) < meta_name(*b);
    });
    const int64_t already = key[0] == 'p' ? 0 : bound_members(*pods.front(), key);
    auto trial = used;
    std::vector<std::pair<std::shared_ptr<const json>, std::string>> placed;
    std::string first_failure;
    std::vector<std::pair<std::shared_ptr<const json>, std::string>> failed;
    for (const auto& pod : pods) {
      Placement p = place(*pod, trial);
      if (!p.node.empty()) {
        placed.emplace_back(pod, p.node);
      } else {
        if (first_failure.empty()) first_failure = p.failure;
        failed.emplace_back(pod, p.failure);
      }
    }
    if (already + static_cast<int64_t>(placed.size()) >= min) {
      used = std::move(trial);
      for (const auto& [pod, node] : placed) bind(*pod, node);
      for (const auto& [pod, msg] : failed) mark_unschedulable(*pod, msg);
      bound = bound || !placed.empty();
    } else {
      for (const auto& pod : pods) mark_unschedulable(*pod, first_failure);
      if (key[0] == 'a') mark_gang_unschedulable(*pods.front(), min, already, pods.size());
    }
  }
  return bound;
}

void Scheduler::bind(const json& pod, const std::string& node) {
  std::string ip;
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    auto it = m_nodes.find(node);
    if (it != m_nodes.end()) ip = it->second.ip;
  }
  const std::string ts = m_ctx.now_str();
  m_ctx.patch(*m_ctx.pods, meta_ns(pod), meta_name(pod), [&](json& obj) {
    obj["spec"]["nodeName"] = node;
    json& st = obj["status"];
    st["phase"] = "Pending";
    if (!ip.empty()) {
      st["hostIP"] = ip;
      st["hostIPs"] = json::array({{{"ip", ip}}});
    }
    set_pod_condition(st, "PodScheduled", "True", "", "", ts);
  });
  const std::string scheduler = pod.value("spec", json::object()).value("schedulerName", "default-scheduler");
  m_ctx.record_event(pod, "Normal", "Scheduled",
                     "Successfully assigned " + meta_ns(pod) + "/" + meta_name(pod) + " to " + node,
                     scheduler);
}

void Scheduler::mark_unschedulable(const json& pod, const std::string& message) {
  const std::string ts = m_ctx.now_str();
  m_ctx.patch(*m_ctx.pods, meta_ns(pod), meta_name(pod), [&](json& obj) {
    json& st = obj["status"];
    st["phase"] = "Pending";
    set_pod_condition(st, "PodScheduled", "False", "Unschedulable", message, ts);
  });
  const TimePoint now = m_ctx.now();
  auto& last = m_last_event[meta_uid(pod)];
  if (last.first == message && now - last.second < std::chrono::seconds(30)) return;
  last = {message, now};
  const std::string scheduler = pod.value("spec", json::object()).value("schedulerName", "default-scheduler");
  m_ctx.record_event(pod, "Warning", "FailedScheduling", message, scheduler);
}

}  // namespace kubesim
