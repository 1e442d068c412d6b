#include "jobs/progress.h"

#include <nlohmann/json.hpp>

#include "core/duration.h"

namespace trainctl::jobs {

std::string TrainingProgress::display() const {
  std::string s = percent ? std::to_string(*percent) + "%" : "";
  if (remaining)
    s += s.empty() ? "ETA " + short_human_duration(*remaining)
                   : " (ETA " + short_human_duration(*remaining) + ")";
  return s.empty() ? "-" : s;
}

std::string TrainingProgress::metrics_display() const {
  std::string s;
  for (const auto& [name, value] : metrics) s += (s.empty() ? "" : " ") + name + "=" + value;
  return s;
}

nlohmann::ordered_json TrainingProgress::to_json() const {
  nlohmann::ordered_json j;
  j["percent"] = percent ? nlohmann::ordered_json(*percent) : nlohmann::ordered_json();
  j["remainingSeconds"] = remaining ? nlohmann::ordered_json(remaining->count()) : nlohmann::ordered_json();
  j["metrics"] = nlohmann::ordered_json::object();
  for (const auto& [name, value] : metrics) j["metrics"][name] = value;
  j["lastUpdated"] = updated.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(updated);
  return j;
}

}  // namespace trainctl::jobs
