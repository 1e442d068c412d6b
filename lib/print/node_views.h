// How top node prints nodes: Arena's summary table and per-node details, and the JSON of -o.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/iostreams.h"
#include "jobs/node_usage.h"

namespace trainctl::print {

// NAME IPADDRESS ROLE STATUS GPU(Total) GPU(Allocated) [GPU(Mode)] [UNHEALTHY] [GPU(Usage)],
// then the cluster's allocated/total (and unhealthy/total) GPUs. GPU(Mode) only when the
// nodes mix modes, UNHEALTHY only when a GPU is unhealthy, the usage bar only on a terminal.
std::string node_summary(const std::vector<jobs::NodeUsage>& nodes, const IOStreams& io);
// -d: per node its address, role, instances and GPU summary, then the cluster's totals.
std::string node_details(const std::vector<jobs::NodeUsage>& nodes, const IOStreams& io);
// -o json|yaml: one object per node (NodeUsage::to_json).
nlohmann::ordered_json nodes_json(const std::vector<jobs::NodeUsage>& nodes);

}  // namespace trainctl::print
