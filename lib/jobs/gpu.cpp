#include "jobs/gpu.h"

#include <cstdlib>
#include <string>

#include "jobs/json_util.h"

namespace trainctl::jobs {

namespace {
// Counts beyond +-2^40 are no real resource amounts: they count as unparsable, which also
// keeps every sum of counts far from overflowing.
constexpr long long kMaxCount = 1LL << 40;
long long bounded(long long v) { return v > kMaxCount || v < -kMaxCount ? 0 : v; }
}  // namespace

long long parse_count(const nlohmann::json& q) {
  if (q.is_number_unsigned())
    return q.get<unsigned long long>() > static_cast<unsigned long long>(kMaxCount) ? 0 : q.get<long long>();
  if (q.is_number_integer()) return bounded(q.get<long long>());
  if (q.is_number()) {
    const double d = q.get<double>();
    return d >= -static_cast<double>(kMaxCount) && d <= static_cast<double>(kMaxCount) ? static_cast<long long>(d) : 0;
  }
  if (!q.is_string()) return 0;
  const std::string s = q.get<std::string>();
  char* end = nullptr;
  long long v = bounded(std::strtoll(s.c_str(), &end, 10));
  if (end == s.c_str()) return 0;
  std::string suffix(end);
  if (suffix.empty()) return v;
  if (suffix == "k") return bounded(v * 1000);
  if (suffix == "M") return bounded(v * 1000000);
  if (suffix == "Ki") return bounded(v * 1024);
  return 0;
}

namespace {
long long sum_limits(const nlohmann::json& spec, bool with_aliyun) {
  long long total = 0;
  for (const auto& c : at(spec, "containers")) {
    const auto& limits = at(at(c, "resources"), "limits");
    long long n = parse_count(at(limits, "nvidia.com/gpu"));
    if (at(limits, "nvidia.com/gpu").is_null()) n = parse_count(at(limits, "alpha.kubernetes.io/nvidia-gpu"));
    if (with_aliyun) n += parse_count(at(limits, "aliyun.com/gpu"));
    total += n;
  }
  return total;
}
}  // namespace

long long pod_nvidia_gpus(const nlohmann::json& pod) { return sum_limits(at(pod, "spec"), false); }
long long pod_gpus(const nlohmann::json& pod) { return sum_limits(at(pod, "spec"), true); }
long long spec_gpus(const nlohmann::json& pod_spec) { return sum_limits(pod_spec, true); }

bool pod_completed(const nlohmann::json& pod) {
  const std::string phase = str(at(pod, "status"), "phase");
  return phase == "Succeeded" || phase == "Failed";
}

}  // namespace trainctl::jobs
