#include "print/node_views.h"

#include <set>

#include "print/bar.h"
#include "print/escape.h"
#include "print/output.h"
#include "print/table.h"

namespace trainctl::print {

using jobs::mode_name;
using jobs::NodeMode;

namespace {

const char* const kDashes =
    "-----------------------------------------------------------------------------------------";

std::string percent(long long part, long long total) {
  // Arena: int64(float64(part) / float64(total) * 100), i.e. truncated.
  const long long p =
      total > 0 ? static_cast<long long>(static_cast<double>(part) / static_cast<double>(total) * 100) : 0;
  return std::to_string(part) + "/" + std::to_string(total) + " (" + std::to_string(p) + "%)";
}

}  // namespace

std::string node_summary(const std::vector<jobs::NodeUsage>& nodes, const IOStreams& io) {
  std::set<NodeMode> modes;
  bool any_unhealthy = false;
  for (const auto& n : nodes) {
    if (n.mode != NodeMode::None) modes.insert(n.mode);
    any_unhealthy = any_unhealthy || n.unhealthy > 0;
  }
  const bool show_mode = modes.size() > 1;
  const bool bar = io.is_tty();
  std::vector<std::string> header = {"NAME", "IPADDRESS", "ROLE", "STATUS", "GPU(Total)", "GPU(Allocated)"};
  if (show_mode) header.push_back("GPU(Mode)");
  if (any_unhealthy) header.push_back("UNHEALTHY");
  if (bar) header.push_back("GPU(Usage)");
  Table t(header);
  t.set_status_column(3);
  long long total = 0, allocated = 0, unhealthy = 0;
  for (const auto& n : nodes) {
    std::vector<std::string> row = {
        n.name, n.ip, n.role, n.status, std::to_string(n.total), std::to_string(n.allocated)};
    if (show_mode) row.push_back(mode_name(n.mode));
    if (any_unhealthy) row.push_back(std::to_string(n.unhealthy));
    if (bar) row.push_back(usage_bar(n.allocated, n.total));
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

std::string node_details(const std::vector<jobs::NodeUsage>& nodes, const IOStreams& io) {
  std::string out;
  long long total = 0, allocated = 0;
  for (const auto& n : nodes) {
    out += "\nName:     " + sanitize(n.name) + "\n";
    out += "Status:   " + n.status + "\n";
    out += "Role:     " + sanitize(n.role) + "\n";
    out += "Type:     " + mode_name(n.mode) + "\n";
    out += "Address:  " + sanitize(n.ip) + "\n";
    out += "Instances:\n";
    if (n.pods.empty()) {
      out += "  (none)\n";
    } else {
      Table t({"NAMESPACE", "NAME", "STATUS", "GPU(Requested)"});
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

nlohmann::ordered_json nodes_json(const std::vector<jobs::NodeUsage>& nodes) {
  auto arr = nlohmann::ordered_json::array();
  for (const auto& n : nodes) arr.push_back(n.to_json());
  return arr;
}

}  // namespace trainctl::print
