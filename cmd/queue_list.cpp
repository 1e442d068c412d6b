// trainctl queue list / top queue, queue pending (see queue_list.h).
#include "cmd/queue_list.h"

#include <CLI/CLI.hpp>

#include "jobs/cluster/queues.h"
#include "print/print_as.h"
#include "print/queue_views.h"

namespace trainctl {

namespace {

const char* kExamples =
    "  # Volcano Queues, Kueue ClusterQueues and LocalQueues\n"
    "  trainctl queue list\n"
    "  # With the pending workloads of each ClusterQueue and their positions\n"
    "  trainctl queue list --pending\n"
    "  # Free GPUs of each ClusterQueue, for scripts\n"
    "  trainctl queue list -o json | jq -r '.kueue.clusterQueues[] | .name as $n | .quotas[] | \"\\($n) \\(.resource) "
    "\\(.used)/\\(.nominal)\"'\n";

}  // namespace

void run_queue_list(const QueueListOptions& o, Factory& f) {
  const auto format = print::parse_output(o.output, QueueListOptions::kFormats);
  const auto overview = jobs::read_queues(f.client(), o.all_namespaces ? "" : f.namespace_());
  if (!overview.volcano && !overview.kueue)
    throw Error("neither Volcano (scheduling.volcano.sh) nor Kueue (kueue.x-k8s.io) is installed on this cluster");
  std::vector<std::vector<jobs::PendingWorkload>> pending;
  if (o.pending && !overview.cluster_queues.empty()) {
    const std::string version = jobs::discover_visibility_version(f.client());
    for (const auto& cq : overview.cluster_queues)
      pending.push_back(jobs::read_pending_workloads(f.client(), version, cq.name));
  }
  print::print_as(format,
                  {.human =
                       [&](std::ostream& out) {
                         out << print::queues_view(overview, f.io());
                         for (size_t i = 0; i < pending.size(); ++i)
                           out << "\nPending in ClusterQueue " << overview.cluster_queues[i].name << ":\n"
                               << print::pending_workloads_view(pending[i], f.io());
                       },
                   .document =
                       [&] {
                         auto j = print::queues_json(overview);
                         for (size_t i = 0; i < pending.size(); ++i)
                           j["kueue"]["clusterQueues"][i]["pendingWorkloads"] = print::pending_workloads_json(pending[i]);
                         return j;
                       }},
                  f.io().out());
}

void run_queue_pending(const QueuePendingOptions& o, Factory& f) {
  const auto format = print::parse_output(o.output, QueuePendingOptions::kFormats);
  const auto pending =
      jobs::read_pending_workloads(f.client(), jobs::discover_visibility_version(f.client()), o.cluster_queue);
  print::print_as(format,
                  {.human = [&](std::ostream& out) { out << print::pending_workloads_view(pending, f.io()); },
                   .document = [&] { return print::pending_workloads_json(pending); }},
                  f.io().out());
}

void setup_queue_list(CLI::App& parent, Factory& f, const std::string& name, RunFn<QueueListOptions> run) {
  auto opts = std::make_shared<QueueListOptions>();
  auto* cmd = parent.add_subcommand(name, "Show Volcano Queues and Kueue ClusterQueues and LocalQueues");
  cmd->add_flag("--pending", opts->pending, "Also the pending workloads of each ClusterQueue, with their positions");
  add_all_namespaces_flag(cmd, opts->all_namespaces, "LocalQueues of every namespace");
  add_output_option(cmd, opts->output, QueueListOptions::kFormats);
  set_examples(cmd, kExamples);
  bind_run(cmd, f, [opts, &f, run = std::move(run)] { run(*opts, f); });
}

void setup_queue_pending(CLI::App& parent, Factory& f, RunFn<QueuePendingOptions> run) {
  auto opts = std::make_shared<QueuePendingOptions>();
  auto* cmd = parent.add_subcommand("pending", "Show the pending workloads of a Kueue ClusterQueue, in queue order");
  cmd->add_option("name", opts->cluster_queue, "ClusterQueue name")->required();
  add_output_option(cmd, opts->output, QueuePendingOptions::kFormats);
  set_examples(cmd,
               "  # Which jobs wait in ClusterQueue cluster-a, first to be admitted first\n"
               "  trainctl queue pending cluster-a\n");
  bind_run(cmd, f, [opts, &f, run = std::move(run)] { run(*opts, f); });
}

}  // namespace trainctl
