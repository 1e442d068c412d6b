// The distributed contract of a training pod: whether the ranks of its job can meet, judged
// as the launchers our users run would judge it (PyTorch's torchrun and env:// rendezvous,
// OpenMPI's mpirun in an MPIJob launcher, TensorFlow's cluster from TF_CONFIG). A pure function of the pod, the pods and Services
// of its namespace and the ConfigMaps it mounts, at one moment; the kubelet asks it when a
// container starts and again while the pod waits (kubelet_rendezvous.cpp).
//
// - Formed: the rendezvous completes now; training proceeds.
// - Waiting: the launcher keeps trying (torch retries its connection and waits for the other
//   ranks) and gives up after give_up_after from the container's start, printing fail_lines.
// - Failed: the launcher fails at once (mpirun whose hosts do not resolve, a missing
//   MASTER_ADDR).
// - NotJudged: kubesim cannot tell what the container runs (a wrapper script, an unknown
//   launcher, an argument it does not parse, a value from a ConfigMap): it runs as before.
//
// The rules and their upstream sources: rendezvous_torch.h, rendezvous_dns.h,
// rendezvous_mpi.cpp, rendezvous_tf.h, and docs/kubesim.md "Distributed contract".
#pragma once

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kubesim/controllers/rendezvous_dns.h"

namespace kubesim {

struct RendezvousInput {
  const nlohmann::json* pod = nullptr;  // the pod whose container starts
  PodList pods;                         // every pod of its namespace (itself included)
  PodList services;                     // every Service of its namespace
  std::map<std::string, nlohmann::json> config_maps;  // name -> data, of the ConfigMaps it mounts
  std::chrono::system_clock::time_point now;
  std::chrono::milliseconds timeout{0};  // > 0: replaces every PyTorch timeout (kubesim --rendezvous-timeout)
};

// A launcher that never gives up waiting (TensorFlow's CreateSession).
inline constexpr std::chrono::milliseconds kWaitsForever = std::chrono::milliseconds::max();

struct RendezvousVerdict {
  enum class State { NotJudged, Formed, Waiting, Failed };
  State state = State::NotJudged;
  size_t container = 0;                 // index of the container that runs the launcher
  std::vector<std::string> wait_lines;  // printed when the wait begins
  std::vector<std::string> fail_lines;  // printed when the launcher gives up
  int exit_code = 1;
  std::chrono::milliseconds give_up_after{0};  // Waiting: from the container's start (or kWaitsForever)
  // Waiting: 0 logs wait_lines when the wait begins and whenever they change (torch's retry
  // loop); > 0 logs them every period from the wait's start, first after one period
  // (TensorFlow's master.cc).
  std::chrono::milliseconds log_every{0};
  std::vector<std::string> members;            // Formed: names of the pods that met
  std::string reason;                          // one line saying why it waits or failed
  // torchrun's c10d backend: its elastic agent restarts the workers when the group changes
  // (torch/distributed/elastic/agent/server/api.py): --max-restarts, -1 for other launchers.
  int max_restarts = -1;
  std::string role;  // --role, printed by the agent
};

RendezvousVerdict judge_rendezvous(const RendezvousInput& in);

// Whether pod's containers run: phase Running and not being deleted (a pod being deleted has
// had its containers stopped: it takes no part in a rendezvous).
bool pod_running(const nlohmann::json& pod);

// Whether a container of pod runs a launcher judge_rendezvous judges (a cheap first look).
bool runs_judged_launcher(const nlohmann::json& pod);

// The pods of pod's job: those sharing its training.kubeflow.org/job-name (with its
// operator-name), volcano.sh/job-name, JobSet jobset.sigs.k8s.io/jobset-name, or batch Job
// job-name label; the pod alone otherwise.
std::vector<const nlohmann::json*> job_pods(const nlohmann::json& pod, const PodList& pods);

// mpirun's hosts: -H/--host, --hostfile/--machinefile/--default-hostfile, or the OpenMPI
// default hostfile (OMPI_MCA_orte_default_hostfile) read from the ConfigMap mounted there.
RendezvousVerdict judge_mpirun(const RendezvousInput& in, size_t container, const ClusterDns& dns);

}  // namespace kubesim
