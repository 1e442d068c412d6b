// The volumes a job can mount with --data PVC:/path: the bound PersistentVolumeClaims of a
// namespace (or of all), with the description and owner annotations Arena's data list shows.
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "jobs/time.h"
#include "kube/client.h"

namespace trainctl::jobs {

struct DataVolume {
  std::string name;
  std::string namespace_;
  nlohmann::json access_modes;  // spec.accessModes as the server gave it (an array)
  std::string access_mode;      // its first entry, "" when none
  std::string description;      // annotation "description"
  std::string owner;            // annotation "owner"
  std::string volume_name;
  std::string storage_class;
  std::string capacity;  // status.capacity.storage
  std::chrono::seconds age{0};
};

// The PVCs that are Bound and not being deleted, as DataVolumes, in their order.
std::vector<DataVolume> bound_volumes(const std::vector<nlohmann::json>& pvcs, TimePoint now);

// Lists the PVCs of `ns` ("" = all namespaces) and keeps the bound ones, in the server's order.
std::vector<DataVolume> list_data_volumes(kube::Client& client, const std::string& ns, TimePoint now);

}  // namespace trainctl::jobs
