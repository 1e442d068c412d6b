// The Trainer's EnforceMLPolicy and EnforcePodGroupPolicy plugins (kubeflow/trainer v2.3.0
// pkg/runtime/framework/plugins): what each adds to the runtime info before the JobSet is built.
//   plainml  no torch/mpi/jax policy: the trainer PodSet counts trainer.numNodes; trainer.env
//   torch    trainer.numNodes; trainer.env then PET_NNODES, PET_NPROC_PER_NODE (numProcPerNode,
//            else "auto" with a GPU, else the CPUs rounded up, at least 1), PET_NODE_RANK (the
//            completion index), PET_MASTER_ADDR <tj>-node-0-0.<tj> and PET_MASTER_PORT 29500
//            (not for torchtune's ["tune","run"]); containerPort 29500; envInjection targets
//   mpi      the PodSet named node counts numNodes (numNodes-1, at least 1, under
//            runLauncherAsNode); numProcPerNode (or the GPUs when the runtime says 1); the ssh
//            Secret volume on node and launcher, the hostfile volume, mount and OpenMPI env on
//            the launcher's node container
//   jax      trainer.numNodes; JAX_NUM_PROCESSES, JAX_PROCESS_ID, JAX_COORDINATOR_ADDRESS; port
//   xgboost  trainer.numNodes; DMLC_TRACKER_URI, DMLC_TRACKER_PORT, DMLC_TASK_ID,
//            DMLC_NUM_WORKER; port
//   trainjobstatus (gate TrainJobStatus) every trainer container: KUBEFLOW_TRAINER_SERVER_URL,
//            _CA_CERT, _TOKEN and the projected token volume
//   volcano / coscheduling  pod annotation scheduling.k8s.io/group-name / pod label
//            scheduling.x-k8s.io/pod-group = <tj>
// Go runs a phase's plugins in map order; their effects do not overlap, so kubesim's fixed
// order gives the same result.
#pragma once

#include "kubesim/controllers/trainer_build.h"

namespace kubesim {

void enforce_ml_policy(TrainerInfo& info, const json& trainjob, const TrainerOptions& options);
void enforce_pod_group_policy(TrainerInfo& info, const json& trainjob);

// pkg/apply EnvVar: a TrainJob env var as an apply configuration (value always written; of
// valueFrom, only fieldRef's fieldPath, resourceFieldRef, configMapKeyRef and secretKeyRef).
json trainer_apply_env_var(const json& env_var);

// The resources the torch, mpi and xgboost plugins read (runtime.go
// ExtractResourcePerNodeFromRuntime, overridden wholesale by trainer.resourcesPerNode).
json trainer_resources_per_node(const TrainerInfo& info, const json& trainjob);
// runtime.go GetNumGPUPerNode: the first resource whose name contains "gpu" (sorted),
// requests before limits.
int64_t gpus_per_node(const json& resources);

// The status server URL of a TrainJob (trainjobstatus.go createEnvVars, statusserver StatusUrl).
std::string trainer_status_url(const json& trainjob, const TrainerOptions& options);

}  // namespace kubesim
