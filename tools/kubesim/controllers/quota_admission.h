// A minimal ResourceQuota admission for pod creates, worded as kube-apiserver's
// (plugin/pkg/admission/resourcequota/controller.go checkRequest):
//   pods "NAME" is forbidden: exceeded quota: QUOTA, requested: R=V, used: R=V, limited: R=V
// The pod's usage is the pod evaluator's (pkg/quota/v1/evaluator/core/pods.go): pods,
// count/pods, cpu and memory (= requests.*), requests.* and limits.* of cpu and memory, and
// requests.<extended resource> (nvidia.com/gpu, aliyun.com/gpu...). A container's requests
// default to its limits, as the API server defaults them. Usage is summed over the namespace's
// pods that have not ended; quotas with scopes are not enforced.
#pragma once

#include <map>
#include <string>

#include "kubesim/store.h"

namespace kubesim {

// Resource name -> amount (cpu in millicores, everything else in units).
using QuotaUsage = std::map<std::string, int64_t>;

QuotaUsage pod_quota_usage(const json& pod);
// Quantity as resource.Quantity prints it for these amounts: "2", "500m", "4Gi".
std::string quota_quantity(const std::string& resource, int64_t amount);
// Throws StatusError 403 Forbidden when creating `pod` takes a quota of its namespace over
// spec.hard.
void admit_pod_quota(const Store& store, const ResourceType& pods, const ResourceType& quotas,
                     const json& pod);

}  // namespace kubesim
