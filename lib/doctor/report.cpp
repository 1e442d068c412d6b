#include "doctor/report.h"

namespace trainctl::doctor {

std::string status_name(Status s) {
  switch (s) {
    case Status::Ok:
      return "ok";
    case Status::Missing:
      return "missing";
    case Status::Warning:
      return "warning";
    case Status::Info:
      return "info";
  }
  return "info";
}

std::string section_title(Section s) {
  switch (s) {
    case Section::JobApis:
      return "Job APIs";
    case Section::Scheduling:
      return "Gang scheduling and queues";
    case Section::Gpus:
      return "GPUs";
    case Section::Metrics:
      return "GPU metrics";
    case Section::Permissions:
      return "Permissions";
  }
  return "";
}

std::string section_key(Section s) {
  switch (s) {
    case Section::JobApis:
      return "jobApis";
    case Section::Scheduling:
      return "scheduling";
    case Section::Gpus:
      return "gpus";
    case Section::Metrics:
      return "metrics";
    case Section::Permissions:
      return "permissions";
  }
  return "";
}

const Finding* Report::find(const std::string& id) const {
  for (const auto& f : findings)
    if (f.id == id) return &f;
  return nullptr;
}

nlohmann::ordered_json Report::to_json() const {
  nlohmann::ordered_json j;
  j["cluster"] = {{"server", server},
                  {"context", context},
                  {"kubernetesVersion", kubernetes_version},
                  {"namespace", namespace_}};
  j["defaultKind"] = {{"kind", default_kind}, {"command", default_command}};
  j["ready"] = ready;
  j["notReadyBecause"] = not_ready_because;
  j["apiRequests"] = api_requests;
  j["roundTrips"] = round_trips;
  auto& out = j["findings"] = nlohmann::ordered_json::array();
  for (const auto& f : findings) {
    nlohmann::ordered_json e;
    e["id"] = f.id;
    e["section"] = section_key(f.section);
    e["name"] = f.name;
    e["status"] = status_name(f.status);
    e["result"] = f.result;
    e["reason"] = f.reason;
    e["fix"] = f.fix;
    e["details"] = f.details;
    out.push_back(std::move(e));
  }
  return j;
}

}  // namespace trainctl::doctor
