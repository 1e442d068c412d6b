// TensorFlow's distributed runtime started from TF_CONFIG, as the training-operator's TFJob
// pods start it (tensorflow/tensorflow master):
// - python/distribute/cluster_resolver/tfconfig_cluster_resolver.py reads TF_CONFIG:
//   `cluster` (job name -> list of "host:port", or, in the sparse form, index -> address),
//   `task.type`, `task.index` (default 0);
// - every task runs a gRPC server on the port of its own entry (core/distributed_runtime/rpc/
//   grpc_server_lib.cc) before anything else;
// - a task that opens a session contacts every task of the cluster before it runs a step
//   (core/distributed_runtime/master.cc DeviceFinder: without device filters, all of them) and
//   logs "CreateSession still waiting for response from worker: /job:J/replica:0/task:I" every
//   10 s (kLoggingPeriodMs) for each that has not answered, with no timeout ("TODO(mrry):
//   Propagate a timeout here"). The chief, master and workers do so (between-graph training
//   with MonitoredTrainingSession, MultiWorkerMirroredStrategy's collective group); ps tasks
//   only serve (server.join()), and an evaluator is not part of the training cluster
//   (tf.estimator RunConfig), so neither waits, and nobody waits for an evaluator.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "kubesim/controllers/rendezvous.h"
#include "kubesim/controllers/rendezvous_shell.h"

namespace kubesim {

struct TfTask {
  std::map<std::string, std::map<int, std::string>> cluster;  // job -> task index -> "host:port"
  std::string type;
  int index = 0;
};

// The TF_CONFIG of a python launcher, when it is known and names a cluster of more than one
// task that holds the launcher's own task; nullopt otherwise (not judged).
std::optional<TfTask> tf_task(const LaunchCommand& cmd);

// The first container of pod whose python launcher has such a TF_CONFIG.
std::optional<TfTask> tf_task_of(const nlohmann::json& pod);

// Whether in.pod's task reaches every task it waits for: each entry's host resolves (from
// in.pod) to a running pod of its job whose own TF_CONFIG names that task at that port.
// Waiting never ends by itself (give_up_after = kWaitsForever).
RendezvousVerdict judge_tf(const RendezvousInput& in, const TfTask& self, const ClusterDns& dns);

}  // namespace kubesim
