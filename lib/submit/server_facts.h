// What the cluster a submit goes to can take, read before rendering: whether the installed
// operator CRD has a field trainctl would send (an older operator's CRD, sent a new field
// with fieldValidation=Strict, refuses the whole create), and whether the Kubernetes release
// labels an Indexed Job's pods with their completion index. Only what the plan needs is
// asked; --dry-run asks nothing and renders for current releases.
#pragma once

#include <string>
#include <vector>

#include "kube/client.h"
#include "submit/plan.h"

namespace trainctl::submit {

struct ServerFacts {
  bool nproc_per_node_field = true;            // PyTorchJob spec.nprocPerNode (training-operator v1.7+)
  bool elastic_policy_field = true;            // PyTorchJob spec.elasticPolicy (training-operator v1.4+)
  bool launcher_creation_policy_field = true;  // MPIJob spec.launcherCreationPolicy (mpi-operator v0.5+)
  // runPolicy.schedulingPolicy.scheduleTimeoutSeconds (training-operator v1.6+, mpi-operator v0.4+)
  bool schedule_timeout_field = true;
  bool runtime_patches_field = true;           // TrainJob spec.runtimePatches (Trainer v2.2.0+)
  bool active_deadline_field = true;           // TrainJob spec.activeDeadlineSeconds (Trainer v2.2.0+)
  bool pod_index_label = true;        // Kubernetes 1.28+: the completion-index pod label
  bool indexed_job_hostnames = true;  // Kubernetes 1.22+: Indexed Job pods named NAME-INDEX
  std::string server_version;         // "1.26" when read
};

// runPolicy.schedulingPolicy.scheduleTimeoutSeconds, as crd_has_field reads a path.
inline constexpr const char* kScheduleTimeoutField = "spec.runPolicy.schedulingPolicy.scheduleTimeoutSeconds";

// Reads the CRDs and /version the plan's kind depends on (SubmitKind::reads_crd,
// Rules::reads_server_version), in one round. A CRD that cannot be read
// (not installed, not allowed) leaves its facts as for current releases: the create then
// says what is wrong.
ServerFacts read_server_facts(kube::Client& client, const Plan& plan);

// Adapts the plan to the facts; returns one line for each change the user should know of.
// Throws UsageError when the cluster cannot run the job at all.
std::vector<std::string> apply_server_facts(const ServerFacts& facts, Plan& plan);

// Whether a CustomResourceDefinition object serves `version` with a schema that accepts the
// field at `path` ("spec.runPolicy.backoffLimit"): declared, or under an object that preserves
// unknown fields or has no structural schema.
bool crd_has_field(const nlohmann::json& crd, const std::string& version, const std::string& path);
// Whether the schema of that version declares the field at `path`: every step is a declared
// property (an object that only preserves unknown fields, or declares none, does not count).
// What tells one release of an operator's API from another.
bool crd_declares_field(const nlohmann::json& crd, const std::string& version, const std::string& path);

// "v1.26.3", "v1.28.0-gke.1" -> {1, 26}; {0, 0} when unreadable.
std::pair<int, int> parse_server_version(const nlohmann::json& version);

}  // namespace trainctl::submit
