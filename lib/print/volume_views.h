// How data list prints the volumes a job can mount: Arena's table and the JSON of -o.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "jobs/cluster/data_volumes.h"
#include "print/table.h"

namespace trainctl::print {

// NAME [NAMESPACE] ACCESSMODE DESCRIPTION OWNER AGE (Arena: NAMESPACE second with -A).
Table volume_table(const std::vector<jobs::DataVolume>& volumes, bool all_namespaces);
// -o json|yaml: name, namespace, accessModes, description, owner, volumeName, storageClass,
// capacity, age ("NNNs").
nlohmann::ordered_json volumes_json(const std::vector<jobs::DataVolume>& volumes);

}  // namespace trainctl::print
