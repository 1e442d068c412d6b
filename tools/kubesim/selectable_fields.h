// The fields a list, watch or deletecollection can select on for each kind, and their values
// as kube-apiserver computes them from the object (its GetAttrs / ToSelectableFields):
// - every kind: metadata.name and metadata.namespace (apiserver pkg/registry/generic
//   AddObjectMetaFieldsSet);
// - Pod: pkg/registry/core/pod/strategy.go ToSelectableFields (spec.hostNetwork "true" or
//   "false", default false; status.podIP from status.podIPs[0]);
// - Event: pkg/registry/core/event/strategy.go (source is source.component, else
//   reportingComponent);
// - Node spec.unschedulable ("true"/"false"), Secret type, Namespace status.phase;
// - batch Job status.successful, the count of status.succeeded (pkg/registry/batch/job/strategy.go
//   JobToSelectableFields).
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "kubesim/field_values.h"

namespace kubesim {

struct ResourceType;

// The selectable field paths of rt's kind, in the order FieldValues are packed.
const std::vector<std::string>& selectable_fields(const ResourceType& rt);

// The values of obj's selectable fields, in selectable_fields(rt) order.
FieldValues selectable_values(const ResourceType& rt, const nlohmann::json& obj);

}  // namespace kubesim
