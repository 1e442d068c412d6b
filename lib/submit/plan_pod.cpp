// The part of make_plan about what every pod carries: image, command, resources, env, labels,
// annotations (with the ones Arena adds to every job), tolerations, devices, host namespaces.
#include <algorithm>

#include "core/errors.h"
#include "core/text.h"
#include "submit/manifests.h"
#include "submit/parse.h"
#include "submit/plan.h"
#include "submit/submit_kind.h"

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

std::vector<KeyValue> key_values(const std::string& flag, const std::vector<std::string>& items, bool label_key,
                                 bool label_value) {
  std::vector<KeyValue> out;
  for (const auto& item : items) {
    KeyValue kv = parse_key_value(flag, item);
    if (label_key && !is_label_key(kv.key))
      throw UsageError("invalid " + flag + " " + dq(item) + ": " + dq(kv.key) +
                       " is not a valid key ([prefix/]name, letters, digits, '-', '_', '.')");
    if (label_value && !is_label_value(kv.value))
      throw UsageError("invalid " + flag + " " + dq(item) + ": " + dq(kv.value) +
                       " is not a valid label value (at most 63 letters, digits, '-', '_', '.')");
    // A repeated key: the last one wins, in its first position.
    auto it = std::find_if(out.begin(), out.end(), [&](const KeyValue& e) { return e.key == kv.key; });
    if (it != out.end()) {
      it->value = kv.value;
    } else {
      out.push_back(kv);
    }
  }
  return out;
}

void check_owned_labels(const std::string& flag, const std::vector<KeyValue>& labels, const Plan& p) {
  for (const auto& kv : labels) {
    for (const auto& own : standard_labels_for_pods(p)) {
      if (kv.key != own.key || kv.value == own.value) continue;
      throw UsageError("invalid " + flag + " " + dq(kv.key + "=" + kv.value) + ": trainctl sets the label " +
                       dq(own.key + "=" + own.value) +
                       " on the job and its objects (list, get, delete and --wait find them by it); leave it "
                       "out or choose another key");
    }
  }
}

void plan_pod(const SubmitOptions& o, Plan& p) {
  const SubmitKind::Rules& rules = p.submit_kind->rules;
  // --worker-image alone is every pod's image; with --image, only the workers'.
  p.image = o.image.empty() ? o.worker_image : o.image;
  if (!o.image.empty() && o.worker_image != o.image) p.worker_image = o.worker_image;
  if (rules.worker_image == WorkerImage::SameAsImage && !p.worker_image.empty())
    throw UsageError("--worker-image differs from --image, but with --operator none every pod runs one "
                     "template: give one image");
  if (rules.image_required && p.image.empty())
    throw UsageError(rules.worker_image != WorkerImage::Refused ? "--image (or --worker-image) must be set"
                                                                : "--image must be set");
  p.gpus = o.gpus;
  p.workers = o.workers;
  p.cpu = o.cpu;
  p.memory = o.memory;
  p.working_dir = o.working_dir;
  p.shell = o.shell;
  for (size_t i = 0; i < o.command_args.size(); ++i) p.command += (i ? " " : "") + o.command_args[i];

  p.envs = key_values("--env", o.envs, false, false);
  p.selectors = key_values("--selector", o.selectors, true, true);
  p.annotations = key_values("--annotation", o.annotations, true, false);
  p.labels = key_values("--label", o.labels, true, true);
  check_owned_labels("--label", p.labels, p);
  for (const auto& t : o.tolerations) p.tolerations.push_back(parse_toleration(t));
  for (const auto& s : o.image_pull_secrets) {
    if (!is_dns1123_subdomain(s)) throw UsageError("invalid --image-pull-secret " + dq(s));
    p.image_pull_secrets.push_back(s);
  }
  if (!o.image_pull_policy.empty() && o.image_pull_policy != "Always" && o.image_pull_policy != "IfNotPresent" &&
      o.image_pull_policy != "Never")
    throw UsageError("invalid --image-pull-policy " + dq(o.image_pull_policy) + ": use Always, IfNotPresent or Never");
  // Arena's default (pkg/argsbuilder/submit.go: --image-pull-policy "Always").
  p.image_pull_policy = o.image_pull_policy.empty() ? "Always" : o.image_pull_policy;
  p.devices = device_resources(o);
  // ACK's GPU sharing (a gpu-mem device, or the gpu-count label of its scheduler): Arena's
  // hasAliyunGPUConfig (pkg/argsbuilder/submit.go) then keeps NVIDIA_VISIBLE_DEVICES as it is.
  p.gpu_share = std::any_of(p.labels.begin(), p.labels.end(),
                            [](const KeyValue& kv) { return kv.key == "aliyun.com/gpu-count" && !kv.value.empty(); }) ||
                std::any_of(p.devices.begin(), p.devices.end(),
                            [](const KeyValue& kv) { return kv.key == "aliyun.com/gpu-mem"; });
  p.rdma = o.rdma;
  // Only when asked: --gputopology no longer implies it (Arena's v1alpha1 chart did; v2beta1
  // workers run sshd, and on the host network a node's second worker cannot bind its port).
  p.host_network = o.host_network;
  // serviceAccountName is a ServiceAccount's object name (core/v1 validation:
  // ValidateServiceAccountName is a DNS-1123 subdomain).
  if (!o.service_account.empty() && !is_dns1123_subdomain(o.service_account))
    throw UsageError("invalid --service-account " + dq(o.service_account) +
                     ": give a ServiceAccount name (lower-case letters, digits, '-' and '.', at most 253)");
  p.service_account = o.service_account;
  p.host_ipc = o.host_ipc;
  p.host_pid = o.host_pid;
}

// --device NAME=QUANTITY as Arena's util.ValidateDevices checks it (a qualified name, any
// quantity, nvidia.com/gpu refused), plus what the API server would refuse later: a name
// without a domain that is not a standard resource, a fractional extended resource.
std::vector<KeyValue> device_resources(const SubmitOptions& o) {
  std::vector<KeyValue> out;
  for (const auto& d : o.devices) {
    const size_t eq = d.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == d.size())
      throw UsageError("invalid --device " + dq(d) + ": use VENDOR/RESOURCE=COUNT, e.g. amd.com/gpu=1");
    KeyValue kv{d.substr(0, eq), d.substr(eq + 1)};
    if (ascii_lower(kv.key) == "nvidia.com/gpu")
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
  add("requestGPUsOfJobOwner", std::to_string(p.submit_kind->requested_gpus(p)));
  if (p.submit_kind->rules.kube_queue && o.queue == "true") add("scheduling.x-k8s.io/suspend", "true");
}

}  // namespace trainctl::submit
