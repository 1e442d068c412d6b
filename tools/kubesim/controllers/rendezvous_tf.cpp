// TensorFlow's cluster as TF_CONFIG describes it (sources: rendezvous_tf.h).
#include "kubesim/controllers/rendezvous_tf.h"

#include <algorithm>
#include <set>

#include "kubesim/controllers/context.h"

namespace kubesim {

using nlohmann::json;

namespace {

// The task types that open a session and so wait for the cluster (rendezvous_tf.h).
bool waits(const std::string& type) { return type == "chief" || type == "master" || type == "worker"; }
// The task types a session contacts: the training cluster, without the evaluator.
bool waited_for(const std::string& type) { return type != "evaluator"; }

std::optional<std::pair<std::string, int>> host_port(const std::string& address) {
  const size_t colon = address.rfind(':');
  if (colon == std::string::npos || colon == 0) return std::nullopt;
  try {
    size_t used = 0;
    const int port = std::stoi(address.substr(colon + 1), &used);
    if (used != address.size() - colon - 1 || port <= 0 || port > 65535) return std::nullopt;
    return std::make_pair(address.substr(0, colon), port);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// ClusterSpec's constructor: a job is a list of addresses (task i at position i) or a map
// of task index -> address (the sparse form of enableDynamicWorker).
std::optional<std::map<int, std::string>> job_tasks(const json& job) {
  std::map<int, std::string> out;
  if (job.is_array()) {
    for (size_t i = 0; i < job.size(); ++i) {
      if (!job[i].is_string()) return std::nullopt;
      out[static_cast<int>(i)] = job[i].get<std::string>();
    }
    return out;
  }
  if (job.is_object()) {
    for (auto it = job.begin(); it != job.end(); ++it) {
      if (!it->is_string()) return std::nullopt;
      try {
        size_t used = 0;
        const int i = std::stoi(it.key(), &used);
        if (used != it.key().size() || i < 0) return std::nullopt;
        out[i] = it->get<std::string>();
      } catch (const std::exception&) {
        return std::nullopt;
      }
    }
    return out;
  }
  if (job.is_null()) return out;  // a sparse spec's absent ps list
  return std::nullopt;
}

std::string device_name(const std::string& type, int index) {
  return "/job:" + type + "/replica:0/task:" + std::to_string(index);
}

}  // namespace

std::optional<TfTask> tf_task(const LaunchCommand& cmd) {
  if (!cmd.judged || cmd.argv.empty() || !is_python(program_name(cmd.argv[0].text))) return std::nullopt;
  const auto text = cmd.env.value("TF_CONFIG");
  if (!text || !cmd.env.exported("TF_CONFIG")) return std::nullopt;
  const json config = json::parse(*text, nullptr, false);
  if (!config.is_object() || !config.contains("cluster") || !config["cluster"].is_object()) return std::nullopt;
  TfTask t;
  size_t tasks = 0;
  for (auto it = config["cluster"].begin(); it != config["cluster"].end(); ++it) {
    auto job = job_tasks(*it);
    if (!job) return std::nullopt;
    tasks += job->size();
    t.cluster[it.key()] = std::move(*job);
  }
  const json task = config.value("task", json::object());
  if (!task.is_object() || !task.contains("type") || !task["type"].is_string()) return std::nullopt;
  t.type = task["type"].get<std::string>();
  if (task.contains("index")) {
    if (!task["index"].is_number_integer()) return std::nullopt;
    t.index = task["index"].get<int>();
  }
  auto job = t.cluster.find(t.type);
  if (tasks < 2 || job == t.cluster.end() || !job->second.count(t.index)) return std::nullopt;
  return t;
}

std::optional<TfTask> tf_task_of(const json& pod) {
  for (const auto& c : pod.value("spec", json::object()).value("containers", json::array()))
    if (auto t = tf_task(launch_command(pod, c))) return t;
  return std::nullopt;
}

RendezvousVerdict judge_tf(const RendezvousInput& in, const TfTask& self, const ClusterDns& dns) {
  using State = RendezvousVerdict::State;
  RendezvousVerdict v;
  v.state = State::Formed;
  if (!waits(self.type)) return v;
  const std::vector<const json*> job = job_pods(*in.pod, in.pods);
  std::map<const json*, std::optional<TfTask>> tasks;  // the TF_CONFIG of each pod reached
  auto task_of = [&](const json* p) -> const std::optional<TfTask>& {
    auto it = tasks.find(p);
    if (it == tasks.end()) it = tasks.emplace(p, p == in.pod ? std::optional<TfTask>(self) : tf_task_of(*p)).first;
    return it->second;
  };
  std::set<const json*> members{in.pod};
  std::vector<std::string> missing;
  for (const auto& [type, entries] : self.cluster) {
    if (!waited_for(type)) continue;
    for (const auto& [index, address] : entries) {
      const auto hp = host_port(address);
      const json* server = nullptr;
      const auto targets = hp ? dns.resolve(hp->first, *in.pod) : std::vector<const json*>{};
      // The task's server: a running pod of the job whose own entry is this task at this port.
      for (const json* p : targets) {
        if (std::find(job.begin(), job.end(), p) == job.end() || !pod_running(*p)) continue;
        const auto& t = task_of(p);
        if (!t || t->type != type || t->index != index) continue;
        const auto own = host_port(t->cluster.at(type).at(index));
        if (own && own->second == hp->second) server = p;
      }
      if (server) {
        members.insert(server);
        continue;
      }
      missing.push_back(device_name(type, index));
      if (v.reason.empty())
        v.reason = "waits for " + missing.back() + ": " + address +
                   (targets.empty() ? " does not resolve" : " reaches no server of that task");
    }
  }
  if (missing.empty()) {
    for (const json* m : members) v.members.push_back(meta_name(*m));
    return v;
  }
  v.state = State::Waiting;
  for (const auto& d : missing)
    v.wait_lines.push_back("I tensorflow/core/distributed_runtime/master.cc] CreateSession still waiting for "
                           "response from worker: " + d);
  v.log_every = std::chrono::seconds(10);  // kLoggingPeriodMs
  v.give_up_after = kWaitsForever;
  if (missing.size() > 1) v.reason += " (and " + std::to_string(missing.size() - 1) + " more)";
  return v;
}

}  // namespace kubesim
