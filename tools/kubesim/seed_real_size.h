// Generated objects dressed as a real kube-apiserver returns them (--generate ...,objects=real):
// what admission, defaulting, the operators, the kubelet and field management add to the lean
// objects the generator builds, so that a benchmark reads the bytes a real cluster sends.
//
// The shape is that of a kubelet-run pod read back from kube-apiserver, as in
// kubernetes/kubectl@dee3483a:pkg/cmd/wait/wait_test.go (podYAML: the defaulted spec, the
// DefaultTolerationSeconds tolerations, the projected kube-api-access volume and its mount, the
// four conditions with lastProbeTime, containerStatuses with containerID/imageID/lastState/
// started, podIPs, qosClass), with managedFields as in
// kubernetes/kubectl@dee3483a:testdata/apply/rc-managedfields-lastapplied.yaml (one Update entry
// per manager, the status subresource its own, FieldsV1 sets of f:/k: keys). Field names and
// types are those of the OpenAPI schemas (../shared/k8s-schemas/openapi: io.k8s.api.core.v1.Pod,
// Node, ManagedFieldsEntry) and the CRDs.
//
// Nothing trainctl reads changes: labels, phases, condition times, GPU limits and node
// addresses stay as generated, so `trainctl list -A` and `top node` print the same table for
// both shapes.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace kubesim {

// The FieldsV1 set of a value as kube-apiserver's field manager writes it: "f:<key>" for
// each object key (with ".": {} where the object is itself a member of a set), "k:{...}" for
// each element of a list of objects keyed by name (containers, env, volumes), type (conditions)
// or key (tolerations), {} for leaves.
nlohmann::json fields_v1(const nlohmann::json& value);

// A pod of a training job: `manager` is the operator's field manager (the controller that
// created it); `env` the variables its operator sets on every container; times are those the
// generator gave the pod (created: creation, started: kubelet's status).
void dress_pod(nlohmann::json& pod, const std::string& manager, const nlohmann::json& env,
               const std::string& created, const std::string& started);

// A training job object (PyTorchJob, MPIJob, Volcano Job, batch Job): the client that created
// it ("kubectl-client-side-apply" with its last-applied annotation) and the operator's status
// updates in managedFields.
void dress_job(nlohmann::json& job, const std::string& manager, const std::string& created,
               const std::string& updated);

// A node as the kubelet, node-feature-discovery and the NVIDIA GPU feature discovery leave
// it: their labels and annotations (no label trainctl reads), status.images, podCIDR,
// providerID and managedFields.
void dress_node(nlohmann::json& node, const std::string& since);

}  // namespace kubesim
