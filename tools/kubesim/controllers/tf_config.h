// What training-operator v1.9.0 does to a TFJob before it makes pods: the scheme defaults
// (pkg/apis/kubeflow.org/v1/tensorflow_defaults.go), applied in memory at every reconcile and
// never written back, and the TF_CONFIG env of each pod (pkg/controller.v1/tensorflow/
// tensorflow.go genTFConfigJSONStr / genClusterSpec, tfjob_controller.go SetClusterSpec).
#pragma once

#include <string>

#include "kubesim/controllers/context.h"

namespace kubesim {

// SetDefaults_TFJob: replica type keys camel-cased (ps -> PS, chief -> Chief, evaluator ->
// Evaluator ...), replicas 1, restartPolicy Never, a port `tfjob-port` 2222 on the
// `tensorflow` container (the first container when none is called so), successPolicy "",
// runPolicy.cleanPodPolicy None.
json tf_defaults(const json& job);

// spec.tfReplicaSpecs (an empty object when absent).
const json& tf_replica_specs(const json& job);

// GetPortFromTFJob: the containerPort named `tfjob-port` of the `tensorflow` container of
// replica type rtype, 2222 when there is none.
int tf_port(const json& defaulted_job, const std::string& rtype);

// genTFConfigJSONStr for the pod of replica type rt_lower ("worker", "ps", ...) and index, as
// encoding/json writes it: {"cluster":{TYPE:["NAME-TYPE-I.NS.svc:PORT",...],...},
// "task":{"type":..,"index":..},"environment":"cloud"} with every replica type in the
// cluster (types sorted, as Go sorts map keys); with spec.enableDynamicWorker the sparse form
// {"cluster":{"worker":{"I":ADDR},"ps":[...]},"task":{...}}.
std::string tf_config_json(const json& defaulted_job, const std::string& rt_lower, int index);

// SetClusterSpec: appends TF_CONFIG to the env of the `tensorflow` container, unless the job
// has a single replica in all (isDistributed false: local training gets no TF_CONFIG).
void set_tf_pod_env(const json& defaulted_job, json& pod_spec, const std::string& rt_lower, int index);

}  // namespace kubesim
