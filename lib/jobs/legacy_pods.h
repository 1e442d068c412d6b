// Pods of the older operator releases docs/operators.md covers, which label their pods
// otherwise than the current ones (JobKind::legacy_pod_selector, legacy_pod_labels): the
// training-operator v1.3 (kubeflow/common v0.3.7 GenLabels: group-name, job-name, replica-type,
// replica-index) and the standalone pytorch-operator v0.6-v0.7 and Arena's build of it
// (group-name, pytorch-job-name, pytorch-replica-type, pytorch-replica-index). Such a pod is
// read in a list of its own (the kind's legacy selector, sent beside the current label's list,
// so no request is added to a round) and made to look like a current one before anything
// reads it: the job's name from the pod's controller ownerReference (a TFJob and a PyTorchJob
// of one name carry the same v1.3 labels; the owner tells them apart), the operator name the
// current releases set, and the replica type and index from the older keys.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "jobs/kind.h"
#include "kube/client.h"
#include "kube/field_set.h"

namespace trainctl::jobs {

// Gives the pod the labels the current releases set, when its controller ownerReference is a
// job of the kind (kubeflow.org, kind.resource.kind) and it lacks kind.pod_job_label; the name
// of that job. "" (the pod untouched) for any other pod.
std::string modernize_pod(const JobKind& kind, nlohmann::json& pod);

// The distinct legacy selectors of `kinds`, each with the kinds that have it.
std::vector<std::pair<std::string, std::vector<size_t>>> legacy_selectors(const std::vector<const JobKind*>& kinds);

// The pods of one job as whole objects: those of kind.pod_selector(job); where there are none
// and the kind has a legacy selector, the namespace's pods of that selector whose owner is the
// job, modernized. An older install costs one more request; a current one none.
std::vector<nlohmann::json> read_job_pods(kube::Client& client, const JobKind& kind, const std::string& ns,
                                          const std::string& job);

// The namespace's pods of the kind's legacy selector whose owner is the job, modernized; none
// (and no request) for a kind without one.
std::vector<nlohmann::json> read_legacy_pods(kube::Client& client, const JobKind& kind, const std::string& ns,
                                             const std::string& job);

// pod_summary_fields (pod_summary.h) and the ownerReferences modernize_pod reads (lists build
// no ownerReferences unless a read names them: kube/page_stream.h).
const kube::FieldSet& legacy_pod_fields();
// The whole pod as a read without fields builds it, and its ownerReferences.
const kube::FieldSet& whole_legacy_pod_fields();

}  // namespace trainctl::jobs
