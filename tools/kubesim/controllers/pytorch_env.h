// What training-operator v1.9.0 does to a PyTorchJob before it makes pods: the scheme
// defaults (pkg/apis/kubeflow.org/v1/pytorch_defaults.go, defaulting_utils.go), applied in
// memory at every reconcile (pytorchjob_controller.go: r.Scheme.Default) and never written
// back, and the env / init container of each pod (pkg/controller.v1/pytorch/envvar.go,
// master.go, elastic.go, initcontainer.go).
#pragma once

#include <optional>
#include <string>

#include "kubesim/controllers/context.h"

namespace kubesim {

// The job with SetDefaults_PyTorchJob applied: replica type keys camel-cased (master ->
// Master), replicas 1, restartPolicy OnFailure, a port `pytorchjob-port` 23456 on the
// `pytorch` container (the first container when none is called so), elasticPolicy
// min/maxReplicas, nprocPerNode "auto", runPolicy.cleanPodPolicy None.
json pytorch_defaults(const json& job);

// getPortFromPyTorchJob: the containerPort named `pytorchjob-port` of the container named
// `pytorch` in replica type rtype; nullopt when there is none ("port not found": the operator
// then creates no pod for the job).
std::optional<int> pytorch_port(const json& defaulted_job, const std::string& rtype);

// setPodEnv + setInitContainer for one pod of a defaulted job: appends to every container's
// env, in the operator's order, PYTHONUNBUFFERED=1, then with a Master MASTER_PORT,
// PET_MASTER_PORT, MASTER_ADDR, PET_MASTER_ADDR, WORLD_SIZE, RANK, PET_NODE_RANK; then
// PET_NPROC_PER_NODE (when spec.nprocPerNode is set) and PET_NNODES (or the elastic
// variables). Workers of a job with a Master get the `init-pytorch` init container that
// waits for the master's DNS name. rt_lower is "master" / "worker". Returns false when the
// operator would fail (no port found), leaving pod_spec half-done.
bool set_pytorch_pod_env(const json& defaulted_job, json& pod_spec, const std::string& rt_lower, int index);

// strconv.Atoi: a base-10 integer with an optional sign and nothing else; nullopt otherwise.
std::optional<long long> go_atoi(const std::string& s);

}  // namespace kubesim
