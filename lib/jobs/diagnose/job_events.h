// Which events are about one job: those whose involvedObject is one of the job's own objects
// (the job, its pods, its PodGroups). An event names its object by kind, name and UID
// (client-go tools/record's recorder fills involvedObject from tools/reference GetReference,
// UID included); a job deleted and submitted again under the same name has a new UID, and so
// do its pods and PodGroup, so the UID tells this job's events from an earlier one's. Names
// alone would not: "train" is a prefix of "train2" and "train-big", and an earlier "train"
// had pods of the same names.
#pragma once

#include <nlohmann/json.hpp>
#include <set>
#include <string>

namespace trainctl::jobs {

class OwnObjects {
 public:
  // One of the job's objects: its metadata.uid and metadata.name.
  void add(const nlohmann::json& object);
  void add(const std::string& uid, const std::string& name);
  // Whether the event's involvedObject is one of them: by UID when the event names one, else
  // (an event written without a UID) by exact name.
  bool about(const nlohmann::json& event) const;

 private:
  std::set<std::string> m_uids;
  std::set<std::string> m_names;
};

// A first, cheap filter while a namespace's events stream in: involvedObject.name is the job's
// name or starts with "NAME-" (its pods NAME-worker-0, NAME-0-x7k2p, Volcano's PodGroup
// NAME-UID). OwnObjects::about decides once the job's objects are known.
bool may_be_about(const std::string& job, const nlohmann::json& event);

}  // namespace trainctl::jobs
