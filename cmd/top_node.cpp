// trainctl top node: GPU capacity and allocation per node, with the cluster's totals.
#include <CLI/CLI.hpp>
#include <set>

#include "cmd/commands.h"
#include "cmd/run.h"
#include "jobs/node_usage.h"
#include "print/bar.h"
#include "print/escape.h"
#include "print/output.h"
#include "print/table.h"

namespace trainctl {

namespace {

struct TopNodeOptions {
  std::vector<std::string> nodes;  // names to show; empty = all
  bool details = false;
  std::string output;
};

const char* const kDashes =
    "-----------------------------------------------------------------------------------------";

std::string percent(long long part, long long total) {
  // Arena: int64(float64(part) / float64(total) * 100), i.e. truncated.
  const long long p =
      total > 0 ? static_cast<long long>(static_cast<double>(part) / static_cast<double>(total) * 100) : 0;
  return std::to_string(part) + "/" + std::to_string(total) + " (" + std::to_string(p) + "%)";
}

std::string summary(const std::vector<jobs::NodeUsage>& nodes, const IOStreams& io) {
  std::set<jobs::NodeMode> modes;
  bool any_unhealthy = false;
  for (const auto& n : nodes) {
    if (n.mode != jobs::NodeMode::None) modes.insert(n.mode);
    any_unhealthy = any_unhealthy || n.unhealthy > 0;
  }
  const bool show_mode = modes.size() > 1;
  const bool bar = io.is_tty();
  std::vector<std::string> header = {"NAME", "IPADDRESS", "ROLE", "STATUS", "GPU(Total)", "GPU(Allocated)"};
  if (show_mode) header.push_back("GPU(Mode)");
  if (any_unhealthy) header.push_back("UNHEALTHY");
  if (bar) header.push_back("GPU(Usage)");
  print::Table t(header);
  t.set_status_column(3);
  long long total = 0, allocated = 0, unhealthy = 0;
  for (const auto& n : nodes) {
    std::vector<std::string> row = {
        n.name, n.ip, n.role, n.status, std::to_string(n.total), std::to_string(n.allocated)};
    if (show_mode) row.push_back(jobs::mode_name(n.mode));
    if (any_unhealthy) row.push_back(std::to_string(n.unhealthy));
    if (bar) row.push_back(print::usage_bar(n.allocated, n.total));
    t.add_row(std::move(row));
    total += n.total;
    allocated += n.allocated;
    unhealthy += n.unhealthy;
  }
  std::string out = t.render(io);
  out += std::string(kDashes) + "\n";
  out += "Allocated/Total GPUs In Cluster:\n" + percent(allocated, total) + "\n";
  if (unhealthy > 0) out += "Unhealthy/Total GPUs In Cluster:\n" + percent(unhealthy, total) + "\n";
  return out;
}

std::string details(const std::vector<jobs::NodeUsage>& nodes, const IOStreams& io) {
  std::string out;
  long long total = 0, allocated = 0;
  for (const auto& n : nodes) {
    out += "\nName:     " + print::sanitize(n.name) + "\n";
    out += "Status:   " + n.status + "\n";
    out += "Role:     " + print::sanitize(n.role) + "\n";
    out += "Type:     " + jobs::mode_name(n.mode) + "\n";
    out += "Address:  " + print::sanitize(n.ip) + "\n";
    out += "Instances:\n";
    if (n.pods.empty()) {
      out += "  (none)\n";
    } else {
      print::Table t({"NAMESPACE", "NAME", "STATUS", "GPU(Requested)"});
      t.set_status_column(2);
      for (const auto& p : n.pods) t.add_row({p.namespace_, p.name, p.status, std::to_string(p.gpus)});
      std::string table = t.render(io);
      // Indent the table under "Instances:".
      for (size_t pos = 0; pos < table.size();) {
        size_t end = table.find('\n', pos);
        out += "  " + table.substr(pos, end - pos + 1);
        pos = end + 1;
      }
    }
    out += "GPU Summary:\n";
    out += "  Total GPUs:      " + std::to_string(n.total) + "\n";
    out += "  Allocated GPUs:  " + std::to_string(n.allocated) + "\n";
    out += "  Unhealthy GPUs:  " + std::to_string(n.unhealthy) + "\n";
    total += n.total;
    allocated += n.allocated;
  }
  out += std::string(kDashes) + "\n";
  out += "Allocated/Total GPUs In Cluster:\n" + percent(allocated, total) + "\n";
  return out;
}

void run_top_node(const TopNodeOptions& o, Factory& f) {
  using print::OutputFormat;
  const auto format =
      print::parse_output(o.output, {OutputFormat::Wide, OutputFormat::Json, OutputFormat::Yaml});
  // Per-pod rows only for -d and -o json/yaml; the table needs per-node sums only.
  const bool keep_pods = o.details || format == OutputFormat::Json || format == OutputFormat::Yaml;
  const auto usage = jobs::read_node_usage(f.client(), o.nodes, keep_pods);
  auto& out = f.io().out();
  if (format == OutputFormat::Json || format == OutputFormat::Yaml) {
    auto arr = nlohmann::ordered_json::array();
    for (const auto& u : usage) arr.push_back(u.to_json());
    out << (format == OutputFormat::Json ? print::to_json(arr) : print::to_yaml(arr));
    return;
  }
  out << (o.details ? details(usage, f.io()) : summary(usage, f.io()));
}

}  // namespace

void setup_top_node(CLI::App& top, Factory& f) {
  auto opts = std::make_shared<TopNodeOptions>();
  auto* cmd = top.add_subcommand("node", "Show GPU capacity and allocation per node");
  cmd->add_option("nodes", opts->nodes, "Only these nodes");
  cmd->add_flag("-d,--details", opts->details, "Per node: its GPU instances and a GPU summary");
  cmd->add_option("-o,--output", opts->output, "Output format: wide (default), json or yaml");
  set_examples(cmd,
               "  # GPUs per node and in the cluster\n"
               "  trainctl top node\n"
               "  # Which pods hold the GPUs of each node\n"
               "  trainctl top node -d\n"
               "  # Free GPUs per node, for scripts\n"
               "  trainctl top node -o json | jq -r '.[] | \"\\(.name) \\(.totalGPUs - .allocatedGPUs)\"'\n");
  bind_run(cmd, f, [opts, &f] { run_top_node(*opts, f); });
}

}  // namespace trainctl
