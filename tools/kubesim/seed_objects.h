// Builders for the cluster objects a seed file or the generator describes.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace kubesim {

// 32 hex digits derived from `name` and `salt`, the same every run (node IDs, generated
// container and image digests).
std::string hex_id(const std::string& name, const char* salt);
// A Namespace (status Active).
nlohmann::json make_namespace(const std::string& name);
// A Node from a seed entry: {name, ip, gpus, gpuResource, cpu, memory, roles, labels, taints,
// unschedulable, ready}; labels kubernetes.io/hostname etc. and node-role.kubernetes.io/<role>.
nlohmann::json make_node(const nlohmann::json& seed);
// A Bound PersistentVolumeClaim from {name, namespace, accessModes, storage, storageClass,
// description, owner}.
nlohmann::json make_pvc(const nlohmann::json& seed);

}  // namespace kubesim
