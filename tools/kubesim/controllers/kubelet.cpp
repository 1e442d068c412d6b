// Simulated kubelets: container lifecycles, pod status and container logs.
#include "kubesim/controllers/kubelet.h"

#include <cstdio>

#include "kubesim/controllers/pod_status.h"
#include "kubesim/controllers/trainer_status_report.h"
#include "kubesim/logs.h"

namespace kubesim {

namespace {

std::string container_id(const std::string& uid, const std::string& name, int attempt) {
  std::hash<std::string> h;
  char buf[80];
  std::snprintf(buf, sizeof buf, "containerd://%016zx%016zx", h(uid + name),
                h(name + std::to_string(attempt)));
  return buf;
}

json containers_of(const json& pod, const char* key) {
  const auto& spec = pod.value("spec", json::object());
  return spec.contains(key) && spec[key].is_array() ? spec[key] : json::array();
}

// The kubelet's message for a pod it evicts under memory pressure (k8s.io/kubernetes
// pkg/kubelet/eviction/helpers.go evictionMessage: nodeLowMessageFmt, thresholdMetMessageFmt
// and containerMessageFmt for the container using more than it requested, trailing space
// included), for the default hard threshold memory.available<100Mi.
std::string eviction_message(const json& pod) {
  const json containers = pod.value("spec", json::object()).value("containers", json::array());
  const json first = containers.empty() ? json::object() : containers[0];
  const json requests = first.value("resources", json::object()).value("requests", json::object());
  const std::string request = requests.contains("memory") && requests["memory"].is_string()
                                  ? requests["memory"].get<std::string>()
                                  : "0";
  return "The node was low on resource: memory. Threshold quantity: 100Mi, available: 92Mi. Container " +
         first.value("name", "") + " was using 30Gi, request is " + request +
         ", has larger consumption of memory. ";
}

json base_status(const json& c) {
  return {{"name", c.value("name", "")},
          {"image", c.value("image", "")},
          {"imageID", ""},
          {"ready", false},
          {"started", false},
          {"restartCount", 0},
          {"lastState", json::object()}};
}

}  // namespace

void Kubelet::reconcile(const std::string& ns, const std::string& name) {
  const auto key = std::make_pair(ns, name);
  auto pod = m_ctx.store.get_shared(*m_ctx.pods, ns, name);
  if (!pod) {
    if (m_runs.erase(key) > 0) {
      m_ctx.logs.remove_pod(ns, name);
      lose_member(ns, name);
    }
    return;
  }
  const json& p = *pod;
  const std::string node = p.value("spec", json::object()).value("nodeName", "");
  if (node.empty()) return;
  if (p["metadata"].contains("deletionTimestamp")) {
    terminate(p);
    return;
  }
  auto it = m_runs.find(key);
  if (it != m_runs.end() && it->second.uid != meta_uid(p)) {
    m_runs.erase(it);
    m_ctx.logs.remove_pod(ns, name);
    lose_member(ns, name);
    it = m_runs.end();
  }
  if (it == m_runs.end()) {
    if (pod_terminal(p)) return;
    Run run;
    run.uid = meta_uid(p);
    run.outcome = annotation(p, kOutcomeAnnotation);
    if (run.outcome.empty()) run.outcome = m_ctx.options.default_outcome;
    if (run.outcome == "succeed" && restart_policy(p) == "Always") run.outcome = "run-forever";
    run.duration = parse_sim_duration(annotation(p, kDurationAnnotation), m_ctx.options.default_duration);
    for (const auto& c : containers_of(p, "containers")) run.containers.push_back(c.value("name", ""));
    const std::string phase = p.value("status", json::object()).value("phase", "");
    if (phase == "Running") {
      // A pod preloaded as Running: keep it as it is when it runs forever.
      if (run.outcome == "run-forever") return;
      run.stage = Stage::Running;
      run.started = parse_time(p["status"].value("startTime", m_ctx.now_str()));
      run.stage_end = run.started + run.duration;
      run.next_line = m_ctx.now();
      run.total_lines = static_cast<size_t>(run.duration / m_ctx.options.log_interval);
      for (const auto& c : containers_of(p, "containers"))
        run.logs.push_back(std::make_unique<TrainingLog>(p, c, run.total_lines));
    } else {
      m_ctx.logs.remove_pod(ns, name);  // a new pod of an old name: the old one's log went with it
      begin(p, run);
    }
    it = m_runs.emplace(key, std::move(run)).first;
  }
  Run& run = it->second;
  const TimePoint now = m_ctx.now();
  for (int guard = 0; guard < 64; ++guard) {
    if (run.stage == Stage::Creating || run.stage == Stage::BackOff) {
      if (now < run.stage_end) break;
      const bool first = run.stage == Stage::Creating;
      if (first && fail_image_pull(p, run)) break;
      const std::optional<std::string> taken = taken_host_port(p, run);
      start_containers(p, run);
      if (taken)
        fail_bind(run, *taken);
      else if (first)
        enter_rendezvous(ns, name, run);
    } else if (run.stage == Stage::ImagePull) {
      if (now < run.stage_end || !fail_image_pull(p, run)) break;
    } else if (run.stage == Stage::Rendezvous) {
      if (!poll_rendezvous(ns, name, run, now)) break;
    } else if (run.stage == Stage::Running) {
      write_logs(p, run, std::min(now, run.stage_end));
      if (run.reports_progress) report_progress(p, run, std::min(now, run.stage_end), false);
      if (now < run.stage_end) break;
      if ((run.outcome == "crash" || run.outcome == "oom" || run.bind_failed) && restart_policy(p) != "Never")
        crash_restart(p, run);
      else
        finish(p, run);
    } else {
      break;
    }
  }
  schedule_wake(ns, name, run);
}

void Kubelet::begin(const json& pod, Run& run) {
  const TimePoint now = m_ctx.now();
  const json inits = containers_of(pod, "initContainers");
  run.stage = Stage::Creating;
  run.stage_end =
      now + m_ctx.options.container_creating + m_ctx.options.init_container * static_cast<int>(inits.size());
  const std::string ts = format_rfc3339(now);
  const json containers = containers_of(pod, "containers");
  // The kubelet reports its node's address as hostIP (kubelet_pods.go generateAPIPodStatus),
  // also for a pod bound without the scheduler (spec.nodeName set at create).
  std::string host_ip;
  if (m_ctx.nodes && !pod.value("status", json::object()).contains("hostIP"))
    if (auto n = m_ctx.store.get_shared(*m_ctx.nodes, "", pod["spec"].value("nodeName", "")))
      for (const auto& a : n->value("status", json::object()).value("addresses", json::array()))
        if (a.value("type", "") == "InternalIP") host_ip = a.value("address", "");
  m_ctx.patch(*m_ctx.pods, meta_ns(pod), meta_name(pod), [&](json& obj) {
    json& st = obj["status"];
    st["phase"] = "Pending";
    if (!host_ip.empty() && !st.contains("hostIP")) {
      st["hostIP"] = host_ip;
      st["hostIPs"] = json::array({{{"ip", host_ip}}});
    }
    if (!st.contains("startTime")) st["startTime"] = ts;
    st["qosClass"] = st.value("qosClass", "BestEffort");
    if (inits.empty())
      set_pod_condition(st, "Initialized", "True", "", "", ts);
    else
      set_pod_condition(st, "Initialized", "False", "ContainersNotInitialized",
                        "containers with incomplete status: [" + inits[0].value("name", "") + "]", ts);
    std::string names;
    for (const auto& c : containers) names += (names.empty() ? "" : " ") + c.value("name", "");
    set_pod_condition(st, "Ready", "False", "ContainersNotReady",
                      "containers with unready status: [" + names + "]", ts);
    set_pod_condition(st, "ContainersReady", "False", "ContainersNotReady",
                      "containers with unready status: [" + names + "]", ts);
    set_pod_condition(st, "PodScheduled", "True", "", "", ts);
    json cs = json::array();
    for (const auto& c : containers) {
      json s = base_status(c);
      s["state"] = {{"waiting", {{"reason", inits.empty() ? "ContainerCreating" : "PodInitializing"}}}};
      cs.push_back(s);
    }
    st["containerStatuses"] = cs;
    if (!inits.empty()) {
      json is = json::array();
      for (size_t i = 0; i < inits.size(); ++i) {
        json s = base_status(inits[i]);
        if (i == 0)
          s["state"] = {{"running", {{"startedAt", ts}}}};
        else
          s["state"] = {{"waiting", {{"reason", "PodInitializing"}}}};
        is.push_back(s);
      }
      st["initContainerStatuses"] = is;
    }
  });
}

void Kubelet::start_containers(const json& pod, Run& run) {
  const TimePoint t = run.stage_end;
  const std::string ts = format_rfc3339(t);
  const bool restart = run.stage == Stage::BackOff;
  run.stage = Stage::Running;
  run.started = t;
  run.next_line = t;
  run.lines = 0;
  run.stage_end = run.outcome == "run-forever" ? kNever : t + run.duration;
  run.total_lines =
      run.outcome == "run-forever" ? 10000 : static_cast<size_t>(run.duration / m_ctx.options.log_interval);
  const std::string ns = meta_ns(pod), name = meta_name(pod);
  run.logs.clear();
  run.last_report = t;
  const json containers = containers_of(pod, "containers");
  for (const auto& c : containers) {
    run.logs.push_back(std::make_unique<TrainingLog>(pod, c, run.total_lines));
    if (restart) m_ctx.logs.reset(ns, name, c.value("name", ""));
    run.reports_progress = run.reports_progress || (run.logs.back()->is_training() && reports_trainer_progress(pod));
  }
  for (const auto& c : containers) {
    const std::string cname = c.value("name", "");
    if (!restart)
      m_ctx.record_event(pod, "Normal", "Pulled",
                         "Container image \"" + c.value("image", "") + "\" already present on machine",
                         "kubelet");
    m_ctx.record_event(pod, "Normal", "Created", "Created container " + cname, "kubelet");
    m_ctx.record_event(pod, "Normal", "Started", "Started container " + cname, "kubelet");
  }
  const std::string node = pod["spec"].value("nodeName", "");
  const json status = pod.value("status", json::object());
  const std::string ip = status.value("podIP", "");
  // A host-network pod has its node's address (the kubelet's status: podIPs are the hostIPs).
  const bool host = pod["spec"].value("hostNetwork", false) && !status.value("hostIP", "").empty();
  const std::string new_ip = !ip.empty() ? ip : host ? status.value("hostIP", "") : pod_ip(node);
  const json inits = containers_of(pod, "initContainers");
  m_ctx.patch(*m_ctx.pods, ns, name, [&](json& obj) {
    json& st = obj["status"];
    st["phase"] = "Running";
    st["podIP"] = new_ip;
    st["podIPs"] = json::array({{{"ip", new_ip}}});
    set_pod_condition(st, "Initialized", "True", "", "", ts);
    set_pod_condition(st, "Ready", "True", "", "", ts);
    set_pod_condition(st, "ContainersReady", "True", "", "", ts);
    json cs = json::array();
    for (size_t i = 0; i < containers.size(); ++i) {
      json s = base_status(containers[i]);
      json old = st.contains("containerStatuses") && i < st["containerStatuses"].size()
                     ? st["containerStatuses"][i]
                     : json::object();
      s["restartCount"] = run.restarts;
      if (old.contains("lastState")) s["lastState"] = old["lastState"];
      s["containerID"] = container_id(run.uid, s["name"], run.restarts);
      s["ready"] = true;
      s["started"] = true;
      s["state"] = {{"running", {{"startedAt", ts}}}};
      cs.push_back(s);
    }
    st["containerStatuses"] = cs;
    if (!inits.empty()) {
      json is = json::array();
      for (const auto& c : inits) {
        json s = base_status(c);
        s["containerID"] = container_id(run.uid, s["name"], 0);
        s["ready"] = true;
        s["state"] = {{"terminated",
                       {{"exitCode", 0},
                        {"reason", "Completed"},
                        {"startedAt", st.value("startTime", ts)},
                        {"finishedAt", ts},
                        {"containerID", s["containerID"]}}}};
        is.push_back(s);
      }
      st["initContainerStatuses"] = is;
    }
  });
}

void Kubelet::write_logs(const json& pod, Run& run, TimePoint until) {
  const std::string ns = meta_ns(pod), name = meta_name(pod);
  // Long-running non-training containers (TensorBoard, sidecars) print a few lines only.
  while (run.next_line <= until && (run.stage_end == kNever || run.next_line < run.stage_end)) {
    bool any = false;
    for (size_t i = 0; i < run.logs.size(); ++i) {
      if (!run.logs[i]->is_training() && run.lines >= 20) continue;
      if (run.logs[i]->is_training() && run.outcome == "run-forever" && run.lines >= run.total_lines)
        continue;
      m_ctx.logs.append(ns, name, run.containers[i], run.logs[i]->line(run.lines), run.next_line);
      any = true;
    }
    if (!any) {
      run.next_line = kNever;
      return;
    }
    ++run.lines;
    run.next_line += m_ctx.options.log_interval;
  }
}

void Kubelet::crash_restart(const json& pod, Run& run) {
  const TimePoint t = run.stage_end;
  const std::string ts = format_rfc3339(t), started = format_rfc3339(run.started);
  const std::string ns = meta_ns(pod), name = meta_name(pod);
  const bool oom = run.outcome == "oom" && !run.bind_failed;  // SIGKILLed by the kernel: no last words
  const int code = run.bind_failed ? run.exit_code : 137;
  run.bind_failed = false;
  run.exit_code = -1;
  for (size_t i = 0; i < run.logs.size() && !oom; ++i)
    for (const auto& l : run.logs[i]->final_lines(code)) m_ctx.logs.append(ns, name, run.containers[i], l, t);
  for (const auto& c : run.containers)
    m_ctx.record_event(
        pod, "Warning", "BackOff",
        "Back-off restarting failed container " + c + " in pod " + name + "_" + ns + "(" + run.uid + ")",
        "kubelet");
  ++run.restarts;
  run.stage = Stage::BackOff;
  run.stage_end = t + m_ctx.options.crash_backoff;
  const int restarts = run.restarts;
  m_ctx.patch(*m_ctx.pods, ns, name, [&](json& obj) {
    json& st = obj["status"];
    set_pod_condition(st, "Ready", "False", "ContainersNotReady", "containers with unready status", ts);
    set_pod_condition(st, "ContainersReady", "False", "ContainersNotReady", "containers with unready status",
                      ts);
    for (auto& s : st["containerStatuses"]) {
      s["lastState"] = {{"terminated",
                         {{"exitCode", code},
                          {"reason", oom ? "OOMKilled" : "Error"},
                          {"startedAt", started},
                          {"finishedAt", ts},
                          {"containerID", s.value("containerID", "")}}}};
      s["restartCount"] = restarts;
      s["ready"] = false;
      s["started"] = false;
      s["state"] = {{"waiting",
                     {{"reason", "CrashLoopBackOff"},
                      {"message", "back-off 10s restarting failed container=" + s.value("name", "") +
                                      " pod=" + name + "_" + ns + "(" + run.uid + ")"}}}};
    }
  });
}

void Kubelet::finish(const json& pod, Run& run) {
  const TimePoint t = run.stage_end;
  const std::string ts = format_rfc3339(t), started = format_rfc3339(run.started);
  const std::string ns = meta_ns(pod), name = meta_name(pod);
  // oom and evicted: the container is SIGKILLed (137) and writes nothing more.
  const bool killed = run.exit_code < 0 && (run.outcome == "oom" || run.outcome == "evicted");
  const int code = run.exit_code >= 0                 ? run.exit_code
                   : run.outcome == "fail"            ? 1
                   : run.outcome == "crash" || killed ? 137
                                                      : 0;
  const std::string reason = code == 0 ? "Completed" : killed && run.outcome == "oom" ? "OOMKilled" : "Error";
  const std::string evicted = killed && run.outcome == "evicted" ? eviction_message(pod) : "";
  for (size_t i = 0; i < run.logs.size(); ++i) {
    if (!killed)
      for (const auto& l : run.logs[i]->final_lines(code))
        m_ctx.logs.append(ns, name, run.containers[i], l, t);
    m_ctx.logs.close(ns, name, run.containers[i]);
  }
  if (!evicted.empty()) m_ctx.record_event(pod, "Warning", "Evicted", evicted, "kubelet");
  if (code == 0 && run.reports_progress) report_progress(pod, run, t, true);
  run.stage = Stage::Done;
  run.stage_end = kNever;
  m_ctx.patch(*m_ctx.pods, ns, name, [&](json& obj) {
    json& st = obj["status"];
    st["phase"] = code == 0 ? "Succeeded" : "Failed";
    const std::string pod_reason = code == 0 ? "PodCompleted" : "PodFailed";
    set_pod_condition(st, "Ready", "False", pod_reason, "", ts);
    set_pod_condition(st, "ContainersReady", "False", pod_reason, "", ts);
    if (!evicted.empty()) {
      st["reason"] = "Evicted";
      st["message"] = evicted;
      set_pod_condition(st, "DisruptionTarget", "True", "TerminationByKubelet", evicted, ts);
    }
    for (auto& s : st["containerStatuses"]) {
      s["ready"] = false;
      s["started"] = false;
      s["state"] = {{"terminated",
                     {{"exitCode", code},
                      {"reason", reason},
                      {"startedAt", started},
                      {"finishedAt", ts},
                      {"containerID", s.value("containerID", "")}}}};
    }
  });
}

// A pod being deleted: its containers are stopped (the simulated ones ignore SIGTERM, so they
// last the whole grace period) and the pod is then deleted with grace 0 and its uid as
// precondition, as the kubelet's status manager does once the pod is terminated
// (k8s.io/kubernetes pkg/kubelet/status/status_manager.go syncPod / canBeDeleted).
void Kubelet::terminate(const json& pod) {
  const std::string ns = meta_ns(pod), name = meta_name(pod);
  if (m_runs.erase({ns, name}) > 0)
    lose_member(ns, name);  // no more log lines or status changes; the log stays readable
  const TimePoint deadline = parse_time(pod["metadata"].value("deletionTimestamp", ""));
  if (m_ctx.now() < deadline) {
    m_ctx.wake_at(ObjectKey{m_ctx.pods, ns, name}, deadline);
    return;
  }
  DeleteOptions o;
  o.grace_period_seconds = 0;
  o.precondition_uid = meta_uid(pod);
  try {
    m_ctx.store.remove(*m_ctx.pods, ns, name, o);
  } catch (const StatusError&) {
    // gone already, or another pod of that name now
  }
}

void Kubelet::schedule_wake(const std::string& ns, const std::string& name, const Run& run) {
  TimePoint next = run.stage_end;
  if ((run.stage == Stage::Running || run.stage == Stage::Rendezvous) && run.next_line < next) next = run.next_line;
  if (next == kNever) return;
  m_ctx.wake_at(ObjectKey{m_ctx.pods, ns, name}, next);
}

std::string Kubelet::pod_ip(const std::string& node) {
  auto [it, inserted] = m_node_index.emplace(node, static_cast<int>(m_node_index.size()));
  const int idx = it->second;
  const int n = ++m_ips_per_node[node];
  char buf[32];
  std::snprintf(buf, sizeof buf, "10.%d.%d.%d", 244 + (idx / 256) % 10, idx % 256, 2 + n % 250);
  return buf;
}

}  // namespace kubesim
