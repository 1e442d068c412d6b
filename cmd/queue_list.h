// trainctl queue list (also `top queue`) and queue pending: the Volcano Queues, Kueue
// ClusterQueues and LocalQueues jobs wait in, and the pending workloads of a ClusterQueue
// with their positions (Kueue's visibility API).
#pragma once

#include <string>

#include "cmd/run.h"

namespace trainctl {

struct QueueListOptions {
  static constexpr print::OutputFormat kFormats[] = {print::OutputFormat::Table, print::OutputFormat::Json,
                                                     print::OutputFormat::Yaml};
  bool pending = false;         // --pending: each ClusterQueue's pending workloads too
  bool all_namespaces = false;  // LocalQueues of every namespace
  std::string output;
};

struct QueuePendingOptions {
  static constexpr print::OutputFormat kFormats[] = {print::OutputFormat::Table, print::OutputFormat::Json,
                                                     print::OutputFormat::Yaml};
  std::string cluster_queue;
  std::string output;
};

void run_queue_list(const QueueListOptions& o, Factory& f);
void run_queue_pending(const QueuePendingOptions& o, Factory& f);
// Registers `list` (and `pending` when with_pending) on `parent` (the `queue` group, or `top`
// as its `queue` subcommand).
void setup_queue_list(CLI::App& parent, Factory& f, const std::string& name = "list",
                      RunFn<QueueListOptions> run = run_queue_list);
void setup_queue_pending(CLI::App& parent, Factory& f, RunFn<QueuePendingOptions> run = run_queue_pending);

}  // namespace trainctl
