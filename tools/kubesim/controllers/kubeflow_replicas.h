// What training-operator v1.9.0's common JobController does alike for every framework
// (pkg/controller.v1/common/pod.go createNewPod / ReconcilePods, service.go CreateNewService,
// job.go ReconcileJobs): the pods and headless Services of the replicas, their labels, the
// exit codes it reads and the runPolicy limits it enforces. Used by the PyTorchJob and TFJob
// controllers.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "kubesim/controllers/run_policy.h"

namespace kubesim {

// What SetDefaults_PyTorchJob and SetDefaults_TFJob do alike (pkg/apis/kubeflow.org/v1
// pytorch_defaults.go, tensorflow_defaults.go, defaulting_utils.go), on a copy of the job:
// runPolicy.cleanPodPolicy None; in the replica map spec.<replicas_key>, the first key equal to
// each of `types` ignoring case renamed to it (setTypeNameToCamelCase); each replica's
// replicas 1 and restartPolicy `restart_policy` when unset, and unless it has a port named
// `port_name`, the container named `container` (else container 0) gets one with `port`
// (setDefaultPort).
struct ReplicaDefaults {
  const char* replicas_key;  // pytorchReplicaSpecs, tfReplicaSpecs
  std::vector<std::string> types;
  const char* restart_policy;
  const char* container;
  const char* port_name;
  int port;
};
json with_replica_defaults(const json& job, const ReplicaDefaults& defaults);

// The replica map spec.<replicas_key> of a job (an empty object when absent or not an object).
const json& replica_specs_of(const json& job, const char* replicas_key);
// The sum of the replica map's replicas (1 for a replica without replicas).
int64_t total_replica_count(const json& specs);

// GenLabels + SetReplicaType/SetReplicaIndex: operator-name, job-name, replica-type (lower
// case), replica-index.
json replica_labels(const json& job, const std::string& operator_name, const std::string& rt_lower,
                    int index);

// The job's pods as GetPodsForJob selects them: controlled by the job and labelled with its
// operator-name and job-name (or, as an older release labels them, its job-name or
// pytorch-job-name).
ObjectList operator_pods(Context& ctx, const json& job, const std::string& operator_name);

// The labels an older release puts where the current one puts replica_labels and job-role
// (--kubeflow-pod-labels): "v1.6" (the default) leaves them; "v1.4" adds the deprecated copies
// (kubeflow/common v0.4.1 GenLabels, pkg/util/labels/labels.go: group-name, job-name,
// replica-type, replica-index, job-role); "v1.3" has those alone (kubeflow/common v0.3.7);
// "pytorch-operator-v0.7" those of kubeflow/pytorch-operator v0.7.0 (controller.go, pod.go,
// tf-operator's jobcontroller GenLabels: group-name, job-name, pytorch-job-name,
// controller-name, pytorch-replica-type, pytorch-replica-index, job-role) on a PyTorchJob's
// pods, "v1.3" on a TFJob's.
void label_as_release(json& labels, const std::string& release, bool pytorch);

// createNewPod without the framework's env: the replica spec's template named
// NAME-<rt_lower>-<index> with the template's labels plus replica_labels (and job-role=master
// when master_role), an ownerReference to the job, the kubesim outcome annotations, the
// replica restartPolicy (ExitCode -> Never; default_policy when unset) and, with
// runPolicy.schedulingPolicy, the volcano scheduler and PodGroup annotation.
json replica_pod(const json& job, const json& replica_spec, const std::string& operator_name,
                 const std::string& rt_lower, int index, bool master_role, const std::string& default_policy);

// CreateNewService: headless, selecting replica_labels, one port per named port of the
// container called `container` (core.GetPortsFromJob); kube-apiserver defaults protocol and
// targetPort.
json replica_service(const json& job, const json& replica_spec, const std::string& operator_name,
                     const std::string& container, const std::string& rt_lower, int index);

// Ensures a Volcano PodGroup NAME for a job with runPolicy.schedulingPolicy (training-operator
// and mpi-operator gang scheduling with Volcano); returns the group name or "".
std::string ensure_job_pod_group(Context& ctx, const json& job, int64_t total_replicas);

// The exit code ReconcilePods reads: the framework container's (`container`) once it
// terminated, else the magic 0xbeef.
int pod_exit_code(const json& pod, const std::string& container);
// trainutil.IsRetryableExitCode: 128 and above (killed by a signal).
bool retryable_exit_code(int code);

// What a framework controller gives the common ReconcilePods.
struct ReplicaSource {
  const char* operator_name;  // event source: pytorchjob-controller, tfjob-controller
  const char* kind;           // PyTorchJob, TFJob: the prefix of condition reasons
  const char* container;      // the framework container: pytorch, tensorflow
  std::function<json(int index)> make_pod;      // a null pod is not created
  std::function<json(int index)> make_service;
};

// The pod phases of one replica type (updateJobReplicaStatuses).
struct ReplicaCounts {
  int64_t active = 0, succeeded = 0, failed = 0;
};

// common/pod.go ReconcilePods and service.go ReconcileServices for replica type rtype (spec
// rs): creates the missing pods and Services; a Failed pod whose restart policy retries it
// (ExitCode with a retryable exit code, OnFailure, Always) is deleted and the job gets
// Restarting "job NAME is restarting because RTYPE replica(s) failed."; ExitCode with a
// non-retryable code sets Failed "job \"NAME\" is failing because \"RTYPE\" replica(s)
// failed.". pods: the job's pods by name.
ReplicaCounts reconcile_replica_pods(Context& ctx, const json& job, const std::string& rtype, const json& rs,
                                     const std::map<std::string, std::shared_ptr<const json>>& pods,
                                     const ReplicaSource& source, json& status, const std::string& now);

// ReconcileJobs' limits: the Failed message when activeDeadlineSeconds passed (since
// status.startTime) or the pods' container restarts reached runPolicy.backoffLimit; "" when
// neither (a wake-up is scheduled for a pending deadline). status is the job's new status.
std::string run_policy_limit_message(Context& ctx, const ResourceType& rt, const json& job,
                                     const json& status, const ObjectList& pods);

// After a reconcile that finished the job: cleanPodPolicy and ttlSecondsAfterFinished on the
// stored job.
void after_job_finished(Context& ctx, const ResourceType& rt, const std::string& ns, const std::string& name);

}  // namespace kubesim
