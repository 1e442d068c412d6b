// Start-up helpers of the kubesim binary: the schema-validation hook, durations, and the
// objects loaded before serving (seed file, generated cluster).
#pragma once

#include "kubesim/server.h"

#include <chrono>
#include <string>

namespace kubesim {

// A Validator backed by the schemas in dir (crds/, openapi/): unknown fields are reported
// and pruned, schema violations become 422 causes.
Validator make_schema_validator(const std::string& dir);

// "90s", "5m", "1h", "250ms" or plain seconds; throws std::invalid_argument.
std::chrono::milliseconds parse_sim_duration(const std::string& text);

// Loads the seed file and/or generates a cluster (either may be empty). A seed's prometheus
// key is copied into prometheus.
void load_startup_objects(Store& store, const std::string& seed_file, const std::string& generate,
                          PrometheusOptions& prometheus);

}  // namespace kubesim
