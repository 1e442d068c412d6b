// Hand-written Kubernetes objects for tests, shaped as the real operators write them
// (training-operator v1.9 PyTorchJob and TFJob status, mpi-operator v2beta1, Volcano v1alpha1 state,
// batch/v1 Job status, core/v1 Pod status). Shared by jobs_tests and cmd_tests.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "jobs/time.h"

namespace fixtures {

using nlohmann::json;

// The fixed "now" of every test: 2024-05-01T10:00:00Z.
inline constexpr const char* kNow = "2024-05-01T10:00:00Z";
inline trainctl::jobs::TimePoint now() { return *trainctl::jobs::parse_time(kNow); }

inline json condition(const std::string& type, const std::string& status, const std::string& at,
                      const std::string& reason = "") {
  return {{"type", type},
          {"status", status},
          {"lastUpdateTime", at},
          {"lastTransitionTime", at},
          {"reason", reason.empty() ? "PyTorchJob" + type : reason},
          {"message", "job " + type}};
}

inline json gpu_container(const std::string& name, int gpus) {
  json c = {{"name", name}, {"image", "pytorch/pytorch:2.1"}};
  if (gpus > 0) c["resources"] = {{"limits", {{"nvidia.com/gpu", std::to_string(gpus)}}}};
  return c;
}

inline json pytorchjob(const std::string& name, const std::string& created, int workers, int gpus,
                       const json& status = json::object(), const std::string& ns = "default") {
  json replica = {{"replicas", 1},
                  {"restartPolicy", "OnFailure"},
                  {"template", {{"spec", {{"containers", json::array({gpu_container("pytorch", gpus)})}}}}}};
  json specs = {{"Master", replica}};
  if (workers > 1) {
    specs["Worker"] = replica;
    specs["Worker"]["replicas"] = workers - 1;
  }
  return {{"apiVersion", "kubeflow.org/v1"},
          {"kind", "PyTorchJob"},
          {"metadata",
           {{"name", name},
            {"namespace", ns},
            {"uid", "uid-" + name},
            {"creationTimestamp", created},
            {"labels", {{"app", "pytorchjob"}, {"release", name}}}}},
          {"spec", {{"pytorchReplicaSpecs", specs}}},
          {"status", status}};
}

inline json mpijob(const std::string& name, const std::string& created, int workers, int gpus,
                   const json& status = json::object(), const std::string& ns = "default") {
  json launcher = {{"replicas", 1},
                   {"template", {{"spec", {{"containers", json::array({gpu_container("mpi", 0)})}}}}}};
  json worker = {{"replicas", workers},
                 {"template", {{"spec", {{"containers", json::array({gpu_container("mpi", gpus)})}}}}}};
  return {
      {"apiVersion", "kubeflow.org/v2beta1"},
      {"kind", "MPIJob"},
      {"metadata",
       {{"name", name}, {"namespace", ns}, {"uid", "uid-" + name}, {"creationTimestamp", created}}},
      {"spec", {{"slotsPerWorker", 1}, {"mpiReplicaSpecs", {{"Launcher", launcher}, {"Worker", worker}}}}},
      {"status", status}};
}

// A TFJob with `ps` parameter servers and `workers` workers (and a Chief replica with
// `chief`), each replica asking for `gpus` GPUs.
inline json tfjob(const std::string& name, const std::string& created, int ps, int workers, int gpus,
                  bool chief = false, const json& status = json::object(),
                  const std::string& ns = "default") {
  auto replica = [gpus](int n) {
    return json{{"replicas", n},
                {"restartPolicy", "OnFailure"},
                {"template", {{"spec", {{"containers", json::array({gpu_container("tensorflow", gpus)})}}}}}};
  };
  json specs = json::object();
  if (chief) specs["Chief"] = replica(1);
  if (ps > 0) specs["PS"] = replica(ps);
  if (workers > 0) specs["Worker"] = replica(workers);
  return {{"apiVersion", "kubeflow.org/v1"},
          {"kind", "TFJob"},
          {"metadata",
           {{"name", name},
            {"namespace", ns},
            {"uid", "uid-" + name},
            {"creationTimestamp", created},
            {"labels", {{"app", "tfjob"}, {"release", name}}}}},
          {"spec", {{"tfReplicaSpecs", specs}}},
          {"status", status}};
}

inline json volcanojob(const std::string& name, const std::string& created, const json& state,
                       const std::string& ns = "default") {
  json task = {{"replicas", 2},
               {"template", {{"spec", {{"containers", json::array({gpu_container("t", 1)})}}}}}};
  json ps = task;
  ps["name"] = "pserver";
  ps["replicas"] = 1;
  ps["template"]["spec"]["containers"][0].erase("resources");
  task["name"] = "trainer";
  json j = {
      {"apiVersion", "batch.volcano.sh/v1alpha1"},
      {"kind", "Job"},
      {"metadata",
       {{"name", name}, {"namespace", ns}, {"uid", "uid-" + name}, {"creationTimestamp", created}}},
      {"spec", {{"minAvailable", 3}, {"schedulerName", "volcano"}, {"tasks", json::array({ps, task})}}}};
  if (!state.is_null()) j["status"] = {{"state", state}, {"minAvailable", 3}};
  return j;
}

// A TrainJob as a user creates it for a runtime (kubeflow/trainer@v2.3.0
// pkg/apis/trainer/v1alpha1/trainjob_types.go; runtimeRef defaulted by the CRD): `nodes`
// nodes of `gpus` GPUs each (resourcesPerNode limits, as the Kubeflow SDK writes them).
inline json trainjob(const std::string& name, const std::string& created, const std::string& runtime,
                     int nodes, int gpus, const json& status = json::object(),
                     const std::string& ns = "default") {
  json trainer = {{"image", "pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime"}, {"numNodes", nodes}};
  if (gpus > 0) trainer["resourcesPerNode"] = {{"limits", {{"nvidia.com/gpu", std::to_string(gpus)}}}};
  return {{"apiVersion", "trainer.kubeflow.org/v1alpha1"},
          {"kind", "TrainJob"},
          {"metadata",
           {{"name", name}, {"namespace", ns}, {"uid", "uid-" + name}, {"creationTimestamp", created}}},
          {"spec",
           {{"runtimeRef",
             {{"name", runtime}, {"apiGroup", "trainer.kubeflow.org"}, {"kind", "ClusterTrainingRuntime"}}},
            {"suspend", false},
            {"managedBy", "trainer.kubeflow.org/trainjob-controller"},
            {"trainer", trainer}}},
          {"status", status}};
}

inline json batchjob(const std::string& name, const std::string& created, const json& status,
                     const std::string& ns = "default") {
  return {{"apiVersion", "batch/v1"},
          {"kind", "Job"},
          {"metadata",
           {{"name", name},
            {"namespace", ns},
            {"uid", "uid-" + name},
            {"creationTimestamp", created},
            {"labels", {{"app", "pytorchjob"}, {"release", name}, {"trainctl.io/operator", "none"}}}}},
          {"spec",
           {{"completionMode", "Indexed"},
            {"completions", 2},
            {"parallelism", 2},
            {"template", {{"spec", {{"containers", json::array({gpu_container("pytorch", 1)})}}}}}}},
          {"status", status}};
}

// node-1 -> 192.168.0.31, node-2 -> 192.168.0.32 ...
inline std::string node_ip(const std::string& node) {
  return node.empty() ? "" : "192.168.0." + std::to_string(30 + (node.back() - '0'));
}

// A pod in phase `phase` with the labels given. Running pods get a ready running container,
// a startTime and a hostIP; Pending pods an Unschedulable condition (no free GPUs).
inline json pod(const std::string& name, const json& labels, const std::string& phase, int gpus,
                const std::string& node = "", const std::string& ns = "default",
                const std::string& created = "2024-05-01T09:50:00Z") {
  json p = {
      {"apiVersion", "v1"},
      {"kind", "Pod"},
      {"metadata", {{"name", name}, {"namespace", ns}, {"labels", labels}, {"creationTimestamp", created}}},
      {"spec", {{"containers", json::array({gpu_container("pytorch", gpus)})}}},
      {"status", {{"phase", phase}}}};
  if (!node.empty()) p["spec"]["nodeName"] = node;
  if (phase == "Pending" && node.empty()) {
    p["status"]["conditions"] =
        json::array({{{"type", "PodScheduled"},
                      {"status", "False"},
                      {"reason", "Unschedulable"},
                      {"message", "0/3 nodes are available: 3 Insufficient nvidia.com/gpu."},
                      {"lastTransitionTime", created}}});
    return p;
  }
  p["status"]["hostIP"] = node_ip(node);
  p["status"]["podIP"] = "10.0.0.5";
  p["status"]["startTime"] = created;
  if (phase == "Running") {
    p["status"]["conditions"] =
        json::array({{{"type", "Ready"}, {"status", "True"}, {"lastTransitionTime", created}}});
    p["status"]["containerStatuses"] = json::array({{{"name", "pytorch"},
                                                     {"ready", true},
                                                     {"restartCount", 0},
                                                     {"state", {{"running", {{"startedAt", created}}}}}}});
  } else if (phase == "Succeeded" || phase == "Failed") {
    const int code = phase == "Succeeded" ? 0 : 1;
    const char* reason = phase == "Succeeded" ? "Completed" : "Error";
    p["status"]["conditions"] = json::array(
        {{{"type", "Ready"}, {"status", "False"}, {"lastTransitionTime", "2024-05-01T09:58:00Z"}}});
    p["status"]["containerStatuses"] = json::array(
        {{{"name", "pytorch"},
          {"ready", false},
          {"restartCount", 0},
          {"state",
           {{"terminated",
             {{"exitCode", code}, {"reason", reason}, {"finishedAt", "2024-05-01T09:58:00Z"}}}}}}});
  } else if (phase == "Pending") {
    p["status"]["containerStatuses"] =
        json::array({{{"name", "pytorch"},
                      {"ready", false},
                      {"restartCount", 0},
                      {"state", {{"waiting", {{"reason", "ContainerCreating"}}}}}}});
  }
  return p;
}

inline json pytorch_labels(const std::string& job, const std::string& type, int index) {
  return {{"training.kubeflow.org/job-name", job},
          {"training.kubeflow.org/replica-type", type},
          {"training.kubeflow.org/replica-index", std::to_string(index)},
          {"training.kubeflow.org/operator-name", "pytorchjob-controller"}};
}

// The labels training-operator v1.9.0 sets on a TFJob's pods (replica type in lower case).
inline json tf_labels(const std::string& job, const std::string& type, int index) {
  return {{"training.kubeflow.org/job-name", job},
          {"training.kubeflow.org/replica-type", type},
          {"training.kubeflow.org/replica-index", std::to_string(index)},
          {"training.kubeflow.org/operator-name", "tfjob-controller"}};
}

inline json mpi_labels(const std::string& job, const std::string& role) {
  return {{"training.kubeflow.org/job-name", job},
          {"training.kubeflow.org/job-role", role},
          {"training.kubeflow.org/operator-name", "mpi-operator"}};
}

inline json volcano_labels(const std::string& job, const std::string& task, int index) {
  return {{"volcano.sh/job-name", job},
          {"volcano.sh/job-namespace", "default"},
          {"volcano.sh/task-spec", task},
          {"volcano.sh/task-index", std::to_string(index)}};
}

inline json batch_labels(const std::string& job, int index) {
  return {{"batch.kubernetes.io/job-name", job},
          {"job-name", job},
          {"batch.kubernetes.io/job-completion-index", std::to_string(index)},
          {"app", "pytorchjob"},
          {"release", job}};
}

// The labels of a TrainJob's pod: the JobSet's on its Job's pod template
// (kubernetes-sigs/jobset@v0.12.0 pkg/controllers/jobset_controller.go labelAndAnnotateObject,
// api/jobset/v1alpha2/jobset_types.go keys) and the Job controller's completion index
// (Kubernetes 1.28+ as a label). `rjob`: node, launcher, dataset-initializer...
inline json trainjob_labels(const std::string& job, const std::string& rjob, int index) {
  return {{"jobset.sigs.k8s.io/jobset-name", job},
          {"jobset.sigs.k8s.io/jobset-uid", "uid-js-" + job},
          {"jobset.sigs.k8s.io/replicatedjob-name", rjob},
          {"jobset.sigs.k8s.io/replicatedjob-replicas", "1"},
          {"jobset.sigs.k8s.io/restart-attempt", "0"},
          {"jobset.sigs.k8s.io/global-replicas", "1"},
          {"jobset.sigs.k8s.io/job-index", "0"},
          {"jobset.sigs.k8s.io/job-global-index", "0"},
          {"jobset.sigs.k8s.io/job-key", "0123456789abcdef0123456789abcdef01234567"},
          {"batch.kubernetes.io/job-name", job + "-" + rjob + "-0"},
          {"job-name", job + "-" + rjob + "-0"},
          {"batch.kubernetes.io/job-completion-index", std::to_string(index)}};
}

}  // namespace fixtures
