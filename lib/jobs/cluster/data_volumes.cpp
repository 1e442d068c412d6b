#include "jobs/cluster/data_volumes.h"

#include "kube/json_util.h"
#include "kube/list_reads.h"

namespace trainctl::jobs {

std::vector<DataVolume> bound_volumes(const std::vector<nlohmann::json>& pvcs, TimePoint now) {
  using kube::at;
  using kube::str;
  std::vector<DataVolume> out;
  for (const auto& pvc : pvcs) {
    if (str(at(pvc, "status"), "phase") != "Bound" ||
        at(at(pvc, "metadata"), "deletionTimestamp").is_string())
      continue;
    DataVolume v;
    v.name = kube::name_of(pvc);
    v.namespace_ = kube::namespace_of(pvc);
    const auto& modes = kube::at_path(pvc, {"spec", "accessModes"});
    v.access_modes = modes.is_array() ? modes : nlohmann::json::array();
    v.access_mode =
        modes.is_array() && !modes.empty() && modes[0].is_string() ? modes[0].get<std::string>() : "";
    v.description = kube::annotation(pvc, "description");
    v.owner = kube::annotation(pvc, "owner");
    v.volume_name = str(at(pvc, "spec"), "volumeName");
    v.storage_class = str(at(pvc, "spec"), "storageClassName");
    v.capacity = str(kube::at_path(pvc, {"status", "capacity"}), "storage");
    const auto created = parse_time(str(at(pvc, "metadata"), "creationTimestamp")).value_or(now);
    v.age = seconds_between(created, now);
    out.push_back(std::move(v));
  }
  return out;
}

std::vector<DataVolume> list_data_volumes(kube::Client& client, const std::string& ns, TimePoint now) {
  auto results = kube::read_all(client, {{kube::persistent_volume_claims().collection_path(ns), true}});
  return bound_volumes(results[0].items, now);
}

}  // namespace trainctl::jobs
