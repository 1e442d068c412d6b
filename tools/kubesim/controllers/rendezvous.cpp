// The PyTorch rendezvous of a job's pods (sources: rendezvous_torch.h). A TCPStore runs on the
// rank-0 process (torch/csrc/distributed/c10d/TCPStore.cpp): every rank connects to the master
// address and port (socket.cpp SocketConnectOp: getaddrinfo, then each address in turn,
// retrying until the timeout), and the store's owner waits until world-size clients joined
// (TCPStore::waitForWorkers). torchrun's c10d backend hosts the store on the endpoint's host
// and completes once min_nodes agents joined (dynamic_rendezvous.py).
#include "kubesim/controllers/rendezvous.h"

#include <algorithm>
#include <optional>
#include <set>

#include "kubesim/controllers/context.h"
#include "kubesim/controllers/rendezvous_tf.h"
#include "kubesim/controllers/rendezvous_torch.h"

namespace kubesim {

using nlohmann::json;

namespace {

using Kind = TorchRendezvous::Kind;
using State = RendezvousVerdict::State;
using std::chrono::milliseconds;
using std::chrono::seconds;

struct Launcher {
  size_t container = 0;
  bool mpirun = false;
  TorchRendezvous torch;
  std::optional<TfTask> tf;
};

// The first container whose launcher kubesim judges.
std::optional<Launcher> launcher_of(const json& pod) {
  const json containers = pod.value("spec", json::object()).value("containers", json::array());
  for (size_t i = 0; i < containers.size(); ++i) {
    const LaunchCommand cmd = launch_command(pod, containers[i]);
    if (!cmd.judged) continue;
    const std::string prog = program_name(cmd.argv[0].text);
    if (prog == "mpirun" || prog == "mpiexec" || prog == "orterun") return Launcher{i, true, {}};
    TorchRendezvous t = torch_rendezvous(cmd);
    if (t.kind != Kind::None) return Launcher{i, false, std::move(t), std::nullopt};
    if (auto tf = tf_task(cmd)) return Launcher{i, false, {}, std::move(tf)};
  }
  return std::nullopt;
}

std::string endpoint(const TorchRendezvous& r) { return "(" + r.host + ", " + std::to_string(r.port) + ")"; }

std::vector<std::string> traceback(std::vector<std::string> lines) {
  lines.insert(lines.begin(), "Traceback (most recent call last):");
  return lines;
}

// The job's pods as seen by one judgement, with their launchers parsed once.
class Group {
 public:
  Group(const RendezvousInput& in, const ClusterDns& dns) : m_dns(dns) {
    for (const json* p : job_pods(*in.pod, in.pods))
      if (pod_running(*p) || p == in.pod) m_pods.push_back(p);
  }
  const std::vector<const json*>& pods() const { return m_pods; }
  const TorchRendezvous* torch(const json* pod) {
    auto it = m_cache.find(pod);
    if (it == m_cache.end()) {
      auto l = launcher_of(*pod);
      it = m_cache.emplace(pod, l && !l->mpirun && !l->tf ? std::optional<TorchRendezvous>(l->torch) : std::nullopt)
               .first;
    }
    return it->second ? &*it->second : nullptr;
  }
  std::vector<const json*> resolve(const std::string& host, const json* from) const {
    return m_dns.resolve(host, *from);
  }
  bool in_job(const json* p) const { return std::find(m_pods.begin(), m_pods.end(), p) != m_pods.end(); }

 private:
  const ClusterDns& m_dns;
  std::vector<const json*> m_pods;
  std::map<const json*, std::optional<TorchRendezvous>> m_cache;
};

seconds effective(const RendezvousInput& in, seconds s) {
  if (in.timeout.count() <= 0) return s;
  return std::max(seconds(1), std::chrono::duration_cast<seconds>(in.timeout));
}

// A rank that cannot reach a listening store: socket.cpp retries until the connect timeout.
RendezvousVerdict unreachable(const RendezvousInput& in, const TorchRendezvous& r, bool resolved, seconds timeout) {
  RendezvousVerdict v;
  v.state = State::Waiting;
  const std::string ep = endpoint(r);
  if (!resolved)
    v.wait_lines.push_back("[W socket.cpp] [c10d] The IPv6 network addresses of " + ep +
                           " cannot be retrieved (gai error: -2 - Name or service not known).");
  else
    v.wait_lines.push_back("[I socket.cpp] [c10d] No socket on " + ep + " is listening yet, will retry.");
  const seconds t = effective(in, timeout);
  const std::string ms = std::to_string(std::chrono::duration_cast<milliseconds>(t).count()) + "ms";
  const std::string msg = "The client socket has timed out after " + ms + " while trying to connect to " + ep + ".";
  v.fail_lines = {"[E socket.cpp] [c10d] " + msg, "Traceback (most recent call last):",
                  "torch.distributed.DistNetworkError: " + msg};
  if (r.kind == Kind::C10d) {
    for (const char* l : {"", "The above exception was the direct cause of the following exception:", "",
                          "Traceback (most recent call last):",
                          "torch.distributed.elastic.rendezvous.api.RendezvousConnectionError: The connection "
                          "to the C10d store has failed. See inner exception for details."})
      v.fail_lines.push_back(l);
  }
  v.give_up_after = t;
  v.reason = (resolved ? "nothing listens on " : "cannot resolve ") + r.host + ":" + std::to_string(r.port);
  return v;
}

RendezvousVerdict judge_store(const RendezvousInput& in, Group& g, const TorchRendezvous& r) {
  const json* self = in.pod;
  const auto targets = g.resolve(r.host, self);
  // The rank-0 process of the same kind listening on that port, among the addresses.
  auto listens = [&](const json* p, const TorchRendezvous& want) {
    const TorchRendezvous* t = g.torch(p);
    return g.in_job(p) && pod_running(*p) && t && t->kind == want.kind && t->port == want.port && t->rank == 0;
  };
  const json* server = nullptr;
  for (const json* t : targets)
    if (listens(t, r)) server = t;
  if (!server) return unreachable(in, r, !targets.empty(), r.connect_timeout);
  const TorchRendezvous& sr = *g.torch(server);
  std::vector<const json*> members;
  std::set<int> ranks;
  bool agree = true;
  for (const json* q : g.pods()) {
    const TorchRendezvous* qr = g.torch(q);
    if (!qr || qr->kind != r.kind || qr->port != r.port || !pod_running(*q)) continue;
    const auto qt = g.resolve(qr->host, q);
    if (std::find(qt.begin(), qt.end(), server) == qt.end()) continue;
    members.push_back(q);
    ranks.insert(qr->rank);
    agree &= qr->world == sr.world;
  }
  const int n = sr.world;
  const bool formed = agree && static_cast<int>(members.size()) == n && static_cast<int>(ranks.size()) == n &&
                      *ranks.begin() == 0 && *ranks.rbegin() == n - 1;
  RendezvousVerdict v;
  if (formed) {
    v.state = State::Formed;
    for (const json* m : members) v.members.push_back(meta_name(*m));
    return v;
  }
  v.state = State::Waiting;
  const seconds t = effective(in, r.timeout);
  const std::string what = r.kind == Kind::Env ? "processes (WORLD_SIZE)" : "nodes (--nnodes)";
  if (self == server && static_cast<int>(members.size()) < n) {
    // TCPStore::waitForWorkers: elapsed > timeout, counted in whole seconds.
    v.give_up_after = t + seconds(1);
    v.fail_lines = traceback({"torch.distributed.DistStoreError: Timed out after " + std::to_string(t.count() + 1) +
                              " seconds waiting for clients. " + std::to_string(members.size()) + "/" +
                              std::to_string(n) + " clients joined."});
  } else {
    // Joined a store whose group never completes: the next store read times out.
    v.give_up_after = t;
    v.fail_lines = traceback({"torch.distributed.DistStoreError: Socket Timeout"});
  }
  v.reason = std::to_string(members.size()) + " of " + std::to_string(n) + " " + what + " reached the store on " +
             meta_name(*server) + ":" + std::to_string(r.port) + (agree ? "" : ", disagreeing on the world size") +
             (static_cast<int>(ranks.size()) == static_cast<int>(members.size()) ? "" : ", with duplicate ranks");
  return v;
}

RendezvousVerdict judge_c10d(const RendezvousInput& in, Group& g, const TorchRendezvous& r) {
  const json* self = in.pod;
  const auto targets = g.resolve(r.host, self);
  const json* host = targets.size() == 1 ? targets[0] : nullptr;
  const TorchRendezvous* hr = host ? g.torch(host) : nullptr;
  if (!host || !g.in_job(host) || !pod_running(*host) || !hr || hr->kind != Kind::C10d || hr->port != r.port)
    return unreachable(in, r, !targets.empty(), r.connect_timeout);
  std::vector<const json*> members;
  for (const json* q : g.pods()) {
    const TorchRendezvous* qr = g.torch(q);
    if (!qr || qr->kind != Kind::C10d || qr->port != r.port || !pod_running(*q)) continue;
    const auto qt = g.resolve(qr->host, q);
    if (qt.size() == 1 && qt[0] == host) members.push_back(q);
  }
  RendezvousVerdict v;
  if (static_cast<int>(members.size()) >= r.min_nodes) {
    v.state = State::Formed;
    for (const json* m : members) v.members.push_back(meta_name(*m));
    return v;
  }
  v.state = State::Waiting;
  v.give_up_after = effective(in, r.timeout);
  v.fail_lines = traceback({"torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError"});
  v.reason = std::to_string(members.size()) + " of " + std::to_string(r.min_nodes) +
             " nodes joined the c10d rendezvous on " + meta_name(*host) + ":" + std::to_string(r.port);
  return v;
}

}  // namespace

std::vector<const json*> job_pods(const json& pod, const PodList& pods) {
  const json labels = pod.value("metadata", json::object()).value("labels", json::object());
  std::map<std::string, std::string> sel;
  // A JobSet's pods (a TrainJob's) are one job across its Jobs (jobset.sigs.k8s.io/jobset-name,
  // which every pod of every replicated job carries): rank 0 of a torch node Job, or the MPI
  // launcher and its nodes, are of the same job.
  for (const char* key : {"training.kubeflow.org/job-name", "volcano.sh/job-name", "pytorch-job-name",
                          "jobset.sigs.k8s.io/jobset-name", "job-name"})
    if (labels.contains(key) && labels[key].is_string()) {
      sel[key] = labels[key];
      if (std::string(key) == "training.kubeflow.org/job-name" && labels.contains("training.kubeflow.org/operator-name"))
        sel["training.kubeflow.org/operator-name"] = labels["training.kubeflow.org/operator-name"];
      break;
    }
  std::vector<const json*> out;
  for (const auto& p : pods) {
    if (p.get() == &pod || meta_name(*p) == meta_name(pod)) continue;
    const json l = p->value("metadata", json::object()).value("labels", json::object());
    bool match = !sel.empty();
    for (const auto& [k, val] : sel) match = match && l.contains(k) && l[k] == val;
    if (match) out.push_back(p.get());
  }
  out.insert(out.begin(), &pod);
  return out;
}

bool pod_running(const json& pod) {
  return pod.value("status", json::object()).value("phase", "") == "Running" &&
         !pod.value("metadata", json::object()).contains("deletionTimestamp");
}

bool runs_judged_launcher(const json& pod) { return launcher_of(pod).has_value(); }

RendezvousVerdict judge_rendezvous(const RendezvousInput& given) {
  const auto launcher = launcher_of(*given.pod);
  if (!launcher) return {};
  // The pod as an element of the namespace's list, so that every lookup names the same object.
  RendezvousInput in = given;
  auto self = std::find_if(in.pods.begin(), in.pods.end(),
                           [&](const auto& p) { return meta_name(*p) == meta_name(*given.pod); });
  if (self == in.pods.end()) {
    in.pods.push_back(std::make_shared<const json>(*given.pod));
    self = in.pods.end() - 1;
  }
  in.pod = self->get();
  const ClusterDns dns(in.pods, in.services, in.now);
  RendezvousVerdict v;
  if (launcher->mpirun) {
    v = judge_mpirun(in, launcher->container, dns);
  } else if (launcher->tf) {
    v = judge_tf(in, *launcher->tf, dns);
  } else {
    const TorchRendezvous& r = launcher->torch;
    Group g(in, dns);
    switch (r.kind) {
      case Kind::Error:
        v.state = State::Failed;
        v.fail_lines = r.error_lines;
        v.reason = r.error_lines.back();
        break;
      case Kind::C10d:
        v = judge_c10d(in, g, r);
        v.max_restarts = r.max_restarts;
        v.role = r.role;
        break;
      default:
        v = judge_store(in, g, r);
        break;
    }
  }
  v.container = launcher->container;
  return v;
}

}  // namespace kubesim
