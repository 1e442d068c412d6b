// trainctl top node: GPU capacity and allocation per node, with the cluster's totals; with
// Prometheus (cmd/gpu_metrics.h) the utilisation of each node's GPUs and how many sit idle,
// and with -d each GPU's, with a sparkline of its utilisation over the idle window (not with -r).
#include <CLI/CLI.hpp>

#include "cmd/top_node.h"
#include "cmd/gpu_metrics.h"
#include "cmd/idle_flags.h"
#include "cmd/live_view.h"
#include "cmd/run.h"
#include "jobs/cluster/node_usage.h"
#include "jobs/cluster/node_usage_live.h"
#include "print/node_views.h"
#include "print/print_as.h"

namespace trainctl {

namespace {

void print_nodes(const TopNodeOptions& o, print::OutputFormat format, const std::vector<jobs::NodeUsage>& usage,
                 const print::NodeGpus& gpus, const print::IdleRule& idle, Factory& f, std::ostream& out,
                 const metrics::UtilizationHistory* history = nullptr) {
  print::print_as(format,
                  {.human =
                       [&](std::ostream& os) {
                         os << (o.details ? print::node_details(usage, f.io(), gpus, idle, history)
                                          : print::node_summary(usage, f.io(), gpus, idle));
                       },
                   .document = [&] { return print::nodes_json(usage, gpus, history); }},
                  out);
}

// -r: nodes and pods listed once, then watched; GPU metrics queried again at every refresh.
void run_top_node_live(const TopNodeOptions& o, print::OutputFormat format, bool keep_pods,
                       const metrics::IdleRule& idle, Factory& f) {
  jobs::LiveNodeUsage live(keep_pods, o.nodes);
  kube::Reflectors reflectors(f.client(), live.collections());
  reflectors.start();
  jobs::check_nodes_found(live.snapshot(), o.nodes);
  const bool metrics = f.metrics_source().source.has_value();
  bool said_why = false;
  run_live(f, reflectors, std::chrono::seconds(o.refresh), metrics, [&](std::ostream& out) {
    const auto usage = live.snapshot();
    print::NodeGpus gpus;
    if (metrics || !said_why) gpus = node_gpu_metrics(f, o.nodes, usage, idle);
    said_why = true;
    print_nodes(o, format, usage, gpus, idle, f, out);
  });
}

}  // namespace

void run_top_node(const TopNodeOptions& o, Factory& f) {
  using print::OutputFormat;
  const auto format =
      print::parse_output(o.output, TopNodeOptions::kFormats);
  const auto idle = idle_rule(o.idle_flags);
  // Per-pod rows only for -d and -o json/yaml, or with metrics to tell how old each GPU's
  // holder is; otherwise the table needs per-node sums only.
  const bool keep_pods = o.details || format == OutputFormat::Json || format == OutputFormat::Yaml ||
                         f.metrics_source().source;
  if (o.refresh > 0) {
    run_top_node_live(o, format, keep_pods, idle, f);
    return;
  }
  const auto usage = jobs::read_node_usage(f.client(), o.nodes, keep_pods);
  const auto gpus = node_gpu_metrics(f, o.nodes, usage, idle);
  // -d: each GPU's utilisation over the window, from one range query.
  const auto history = gpus && o.details ? node_gpu_history(f, o.nodes, usage, idle) : std::nullopt;
  print_nodes(o, format, usage, gpus, idle, f, f.io().out(), history ? &*history : nullptr);
}

void setup_top_node(CLI::App& top, Factory& f, RunFn<TopNodeOptions> run) {
  auto opts = std::make_shared<TopNodeOptions>();
  auto* cmd = top.add_subcommand("node", "Show GPU capacity and allocation per node");
  cmd->add_option("nodes", opts->nodes, "Only these nodes");
  cmd->add_flag("-d,--details", opts->details, "Per node: its GPU instances and a GPU summary");
  add_output_option(cmd, opts->output, TopNodeOptions::kFormats);
  add_idle_flags(cmd, opts->idle_flags);
  add_refresh_option(cmd, opts->refresh);
  set_examples(cmd,
               "  # GPUs per node and in the cluster\n"
               "  trainctl top node\n"
               "  # Which pods hold the GPUs of each node; each GPU's utilisation and memory\n"
               "  trainctl top node -d\n"
               "  # Count a GPU as idle under 10 % for the last 30 minutes\n"
               "  trainctl top node -d --idle-window 30m --idle-threshold 10\n"
               "  # Kept current every 5 seconds from a watch: each refresh costs only what changed\n"
               "  trainctl top node -r 5\n"
               "  # Free GPUs per node, for scripts\n"
               "  trainctl top node -o json | jq -r '.[] | \"\\(.name) \\(.totalGPUs - .allocatedGPUs)\"'\n");
  bind_run(cmd, f, [opts, &f, run = std::move(run)] { run(*opts, f); });
}

}  // namespace trainctl
