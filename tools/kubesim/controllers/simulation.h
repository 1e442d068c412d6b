// kubesim's controllers: the training operators (PyTorchJob, TFJob, MPIJob, Volcano Job), the
// batch/v1 Job and apps/v1 Deployment controllers, a gang-aware scheduler and kubelets,
// all driven by one clock. Real time (with a speed factor) by default; a manual clock for
// tests, where step() advances time and runs every controller to a fixed point.
//
// Command-line flags main.cpp should map onto SimulationOptions:
//   --speed FACTOR              speed (simulated seconds per real second), default 1
//   --default-outcome WHAT      default_outcome: succeed|fail|crash|run-forever
//   --default-duration DUR      default_duration (e.g. 60s, 5m)
//   --rendezvous-timeout DUR    rendezvous_timeout: every simulated PyTorch rendezvous timeout
//   --kueue-integrations LIST   kueue.frameworks (also the server's, for the job webhook)
//   --no-controllers            do not construct/start a Simulation at all
// Per-object overrides (annotation on the job or on the pod template/pod):
//   kubesim.trainctl.io/outcome: succeed|fail|crash|run-forever
//   kubesim.trainctl.io/duration: 30s
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "kubesim/kueue_config.h"

namespace kubesim {

class Store;
class LogStore;

struct SimulationOptions {
  double speed = 1.0;                                   // simulated seconds per real second (real clock)
  bool manual_clock = false;                            // time only moves through step()
  std::chrono::milliseconds tick{200};                  // real-time period of the background loop
  std::string default_outcome = "succeed";              // succeed|fail|crash|run-forever
  std::chrono::milliseconds default_duration{60'000};   // how long a container runs
  std::chrono::milliseconds container_creating{2'000};  // bound -> Running
  std::chrono::milliseconds init_container{1'000};      // per init container
  std::chrono::milliseconds log_interval{1'000};        // between two log lines
  std::chrono::milliseconds crash_backoff{10'000};      // CrashLoopBackOff wait
  uint64_t random_seed = 1;                             // suffixes (launcher pod, ReplicaSet) and pod IPs
  // Start of the manual clock (Unix seconds); 0 = the real time at construction.
  int64_t manual_start_unix = 0;
  // The Kubernetes minor release emulated (--kubernetes-version): Job pod labels depend on it.
  int kubernetes_minor = 31;
  // The training-operator release whose pod labels PyTorchJob and TFJob pods get
  // (--kubeflow-pod-labels; kubeflow_replicas.h label_as_release): v1.6, v1.4, v1.3 or
  // pytorch-operator-v0.7.
  std::string kubeflow_pod_labels = "v1.6";
  // Replaces every simulated PyTorch rendezvous timeout when > 0 (--rendezvous-timeout).
  std::chrono::milliseconds rendezvous_timeout{0};
  // Kueue's configuration (--kueue-integrations): only enabled integrations get a reconciler.
  KueueConfig kueue;
  // Kubeflow Trainer's feature gate TrainJobStatus (--trainer-feature-gates TrainJobStatus=true):
  // trainer pods get the status server's env and report their progress (trainer_status_report.h).
  bool trainjob_status = false;
};

class Simulation {
 public:
  Simulation(Store& store, LogStore& logs, SimulationOptions options = {});
  ~Simulation();  // stops the background thread
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  // Registers the custom resource types the controllers need (PyTorchJob, TFJob, MPIJob, Volcano
  // Job, PodGroup, Queue) when the store does not know them yet. Called by the constructor.
  static void ensure_types(Store& store);

  // Real clock: a background thread ticks every options.tick and reacts to store changes.
  void start();
  void stop();
  // Manual clock: advances time by d in small increments, running all controllers at each
  // one until nothing changes. Also usable with the real clock to force a reconcile (d = 0).
  void step(std::chrono::milliseconds d);
  // Runs every controller until nothing changes, without moving the clock.
  void settle();

  std::chrono::system_clock::time_point now() const;
  const SimulationOptions& options() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> m;
};

// Gives every port of a Service of type NodePort/LoadBalancer without spec.ports[].nodePort
// a free one in 30000-32767 (like kube-apiserver on create). Call before Store::create.
// Throws StatusError 422 (Invalid) when a requested nodePort is out of range or taken.
void allocate_node_port(const Store& store, nlohmann::json& service);

}  // namespace kubesim
