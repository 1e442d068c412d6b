// Parts of make_plan about what every pod carries: --device resources, and the annotations
// Arena adds to every job.
#include <algorithm>

#include "core/errors.h"
#include "core/text.h"
#include "submit/parse.h"
#include "submit/plan.h"

namespace trainctl::submit {

namespace {

// Resource names without a domain that a container may request (core/v1
// IsStandardContainerResourceName); cpu and memory have their own flags.
bool standard_resource(const std::string& name) {
  return name == "ephemeral-storage" || name.rfind("hugepages-", 0) == 0;
}

// Kubernetes refuses a fractional quantity of an extended resource ("must be an integer").
bool whole_quantity(const std::string& q) {
  if (q.find('.') != std::string::npos) return false;
  return q.back() != 'm' && q.back() != 'u' && q.back() != 'n';
}

}  // namespace

// --device NAME=QUANTITY as Arena's util.ValidateDevices checks it (a qualified name, any
// quantity, nvidia.com/gpu refused), plus what the API server would refuse later: a name
// without a domain that is not a standard resource, a fractional extended resource.
std::vector<KeyValue> device_resources(const SubmitOptions& o) {
  std::vector<KeyValue> out;
  const std::string gpu_resource = o.gputopology ? "aliyun.com/gpu" : "nvidia.com/gpu";
  for (const auto& d : o.devices) {
    const size_t eq = d.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == d.size())
      throw UsageError("invalid --device " + dq(d) + ": use VENDOR/RESOURCE=COUNT, e.g. amd.com/gpu=1");
    KeyValue kv{d.substr(0, eq), d.substr(eq + 1)};
    if (ascii_lower(kv.key) == "nvidia.com/gpu" || kv.key == gpu_resource)
      throw UsageError("invalid --device " + dq(d) + ": give GPUs with --gpus " + kv.value);
    if (kv.key == "cpu" || kv.key == "memory")
      throw UsageError("invalid --device " + dq(d) + ": give " + kv.key + " with --" + kv.key);
    if (!is_label_key(kv.key) || (kv.key.find('/') == std::string::npos && !standard_resource(kv.key)))
      throw UsageError("invalid --device " + dq(d) + ": use VENDOR/RESOURCE=COUNT, e.g. amd.com/gpu=1");
    if (!is_quantity(kv.value))
      throw UsageError("invalid --device " + dq(d) + ": " + dq(kv.value) +
                       " is not a quantity (a count such as 1, or 8Gi)");
    if (kv.key.find('/') != std::string::npos && !whole_quantity(kv.value))
      throw UsageError("invalid --device " + dq(d) + ": the count of " + kv.key + " must be a whole number");
    if (std::any_of(out.begin(), out.end(), [&](const KeyValue& e) { return e.key == kv.key; }))
      throw UsageError("--device names " + dq(kv.key) + " twice");
    out.push_back(kv);
  }
  if (o.rdma && std::none_of(out.begin(), out.end(), [](const KeyValue& e) { return e.key == "rdma/hca"; }))
    out.push_back({"rdma/hca", "1"});
  return out;
}

// Arena's SubmitArgsBuilder (kubeflow/arena pkg/argsbuilder/submit.go): setQueue adds
// scheduling.x-k8s.io/suspend for kube-queue, addRequestGPUsToAnnotation records workers x GPUs
// (pkg/training/gpu.go reads it back as the job's requested GPUs).
void add_implicit_annotations(const SubmitOptions& o, Plan& p) {
  auto add = [&](const std::string& key, const std::string& value) {
    if (std::none_of(p.annotations.begin(), p.annotations.end(), [&](const KeyValue& a) { return a.key == key; }))
      p.annotations.push_back({key, value});
  };
  const long long pods = p.kind->trainer == jobs::Trainer::Volcano ? p.expected_pods : p.workers;
  add("requestGPUsOfJobOwner", std::to_string(pods * p.gpus));
  if (o.trainer != jobs::Trainer::Volcano && o.queue == "true") add("scheduling.x-k8s.io/suspend", "true");
}

}  // namespace trainctl::submit
