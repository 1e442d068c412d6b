#include "print/volume_views.h"

#include "core/duration.h"

namespace trainctl::print {

Table volume_table(const std::vector<jobs::DataVolume>& volumes, bool all_namespaces) {
  std::vector<std::string> header = {"NAME", "ACCESSMODE", "DESCRIPTION", "OWNER", "AGE"};
  if (all_namespaces) header.insert(header.begin() + 1, "NAMESPACE");
  Table t(header);
  for (const auto& v : volumes) {
    std::vector<std::string> row = {v.name, v.access_mode, v.description, v.owner, short_human_duration(v.age)};
    if (all_namespaces) row.insert(row.begin() + 1, v.namespace_);
    t.add_row(std::move(row));
  }
  return t;
}

nlohmann::ordered_json volumes_json(const std::vector<jobs::DataVolume>& volumes) {
  auto arr = nlohmann::ordered_json::array();
  for (const auto& v : volumes) {
    nlohmann::ordered_json j;
    j["name"] = v.name;
    j["namespace"] = v.namespace_;
    j["accessModes"] = v.access_modes;
    j["description"] = v.description;
    j["owner"] = v.owner;
    j["volumeName"] = v.volume_name;
    j["storageClass"] = v.storage_class;
    j["capacity"] = v.capacity;
    j["age"] = std::to_string(v.age.count()) + "s";
    arr.push_back(std::move(j));
  }
  return arr;
}

}  // namespace trainctl::print
