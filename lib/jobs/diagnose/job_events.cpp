#include "jobs/diagnose/job_events.h"

#include "jobs/json_util.h"

namespace trainctl::jobs {

void OwnObjects::add(const nlohmann::json& object) {
  const auto& meta = at(object, "metadata");
  add(str(meta, "uid"), str(meta, "name"));
}

void OwnObjects::add(const std::string& uid, const std::string& name) {
  if (!uid.empty()) m_uids.insert(uid);
  if (!name.empty()) m_names.insert(name);
}

bool OwnObjects::about(const nlohmann::json& event) const {
  const auto& object = at(event, "involvedObject");
  const std::string uid = str(object, "uid");
  return uid.empty() ? m_names.count(str(object, "name")) > 0 : m_uids.count(uid) > 0;
}

bool may_be_about(const std::string& job, const nlohmann::json& event) {
  const std::string name = str(at(event, "involvedObject"), "name");
  return name.size() >= job.size() && name.compare(0, job.size(), job) == 0 &&
         (name.size() == job.size() || name[job.size()] == '-');
}

}  // namespace trainctl::jobs
