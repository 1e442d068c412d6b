// What the GPU exporters on kubesim's nodes expose, for a real Prometheus to scrape
// (docs/kubesim.md, "GPU exporters"): the Prometheus text exposition format of
// dcgm-exporter or of Arena's GPU exporter, one endpoint per node, with the values the
// simulated GPUs show at kubesim's now (gpu_series.h); and the targets, as Prometheus'
// HTTP service discovery reads them, that prometheus-operator's ServiceMonitor would find.
//
//   GET /kubesim/exporters/FAMILY/targets        Prometheus HTTP SD (http_sd_configs)
//   GET /kubesim/exporters/FAMILY/NODE/metrics   the node's exposition
//
// FAMILY: dcgm (dcgm-exporter 3.1.6 and later: Hostname is the node), dcgm-before-3.1.6
// (Hostname is the exporter pod's own name) or arena.
#pragma once

#include <httplib.h>

#include <cstdint>
#include <optional>
#include <string>

#include "kubesim/rest.h"

namespace kubesim {

class Store;

// The exposition of NODE's exporter of FAMILY at now_ms; nullopt when FAMILY is unknown or the
// node has no GPUs.
std::optional<std::string> gpu_exposition(const Store& store, const std::string& family, const std::string& node,
                                          int64_t now_ms);

// The HTTP SD answer: one target per node with GPUs, all at `address` (kubesim's host:port),
// each with its __metrics_path__ and the target labels of the exporter's pod and Service.
json gpu_exporter_targets(const Store& store, const std::string& family, const std::string& address);

// Answers GET /kubesim/exporters/... (404 for any other path, 405 for another method).
void serve_gpu_exporters(const Store& store, int64_t now_ms, const httplib::Request& req, httplib::Response& res);

}  // namespace kubesim
