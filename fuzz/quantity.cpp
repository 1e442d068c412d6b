// Fuzzes the parsers of resource quantities and the other scalar values that arrive as
// text: GPU counts as Arena reads them (jobs::parse_count, from a JSON string or number),
// kubesim's CPU and memory quantities, submit's quantity check for --cpu/--memory, Go
// durations (--since, --timeout), and RFC 3339 times of API objects.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "core/duration.h"
#include "core/errors.h"
#include "jobs/gpu.h"
#include "jobs/time.h"
#include "kubesim/controllers/context.h"
#include "submit/parse.h"

using namespace trainctl;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const nlohmann::json as_string = text;
  // The same text as a JSON value when it is one (numbers of any size and sign).
  const nlohmann::json as_json = nlohmann::json::parse(text, nullptr, false);

  (void)jobs::parse_count(as_string);
  (void)submit::is_quantity(text);
  (void)kubesim::parse_quantity(as_string);
  (void)kubesim::parse_cpu_milli(as_string);
  if (!as_json.is_discarded()) {
    (void)jobs::parse_count(as_json);
    (void)kubesim::parse_quantity(as_json);
    (void)kubesim::parse_cpu_milli(as_json);
  }
  try {
    (void)short_human_duration(std::chrono::duration_cast<std::chrono::seconds>(parse_duration(text)));
  } catch (const UsageError&) {
  }
  try {
    (void)submit::parse_seconds("--timeout", text);
  } catch (const UsageError&) {
  }
  if (auto t = jobs::parse_time(text)) {
    (void)jobs::format_rfc3339(*t);
    (void)jobs::format_local(*t);
  }
  (void)kubesim::format_rfc3339(kubesim::parse_time(text));
  (void)kubesim::parse_sim_duration(text, std::chrono::milliseconds(0));
  return 0;
}
