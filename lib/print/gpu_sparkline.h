// GPU utilisation over the idle window as terminal sparklines (metrics/gpu_history.h): one line
// per GPU with its minimum, mean and maximum and how long it has stayed under the idle
// threshold, so that "is my job using its GPUs, and since when not" is seen at a glance.
// Glyphs: Unicode block elements (U+2581..U+2588) on a UTF-8 terminal (IOStreams::utf8), else
// ASCII; a step without a sample is a space. The scale is fixed, 0 to 100 %.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/iostreams.h"
#include "metrics/gpu_history.h"

namespace trainctl::print {

// One glyph per column: 8 levels, "▁▂▃▄▅▆▇█" (unicode) or "_.-:=+*#" (ASCII).
std::string sparkline(const std::vector<std::optional<double>>& columns, bool unicode);

// "10m+" (the whole window), "4m20s", "-" (the last sample is above the threshold), "N/A".
std::string under_threshold_text(const metrics::GpuHistory& g, const metrics::HistoryWindow& w);

// The section: "GPU utilisation, last 10m (20s a column, 0-100%):" and a table of `first`
// (INSTANCE or POD) GPU UTILISATION MIN MEAN MAX "UNDER 5%", rows as `label` names each GPU.
// "" when there are no GPUs.
std::string gpu_history_text(const metrics::UtilizationHistory& h, const std::vector<const metrics::GpuHistory*>& gpus,
                             const std::string& first, std::string (*label)(const metrics::GpuMetric&),
                             const IOStreams& io, const std::string& indent = "");

// The GPUs on `node` ("" for all), ordered by namespace and pod, then device index.
std::vector<const metrics::GpuHistory*> histories_of(const metrics::UtilizationHistory& h, const std::string& node = "");

// {"start": RFC 3339, "end": RFC 3339, "stepSeconds": 20, "threshold": 5, "gpus": [{"namespace",
// "instance", "node", "gpu", "migInstance", "min", "mean", "max", "underThresholdSince",
// "points": [[unix seconds, percent], ...]}]} (docs/json-output.md).
nlohmann::ordered_json gpu_history_json(const metrics::UtilizationHistory& h,
                                        const std::vector<const metrics::GpuHistory*>& gpus);

// The section for a job's GPUs (top job NAME, get -g): rows named by instance; "" without GPUs.
std::string job_gpu_history_text(const metrics::UtilizationHistory& h, const IOStreams& io);
// The section for one node's GPUs (top node -d), indented under the node; rows named NS/POD.
std::string node_gpu_history_text(const metrics::UtilizationHistory& h, const std::string& node, const IOStreams& io);
// Sets doc["gpuUtilizationHistory"] to gpu_history_json of all of `h`'s GPUs, or null without it.
void add_gpu_history(nlohmann::ordered_json& doc, const std::optional<metrics::UtilizationHistory>& h);

}  // namespace trainctl::print
