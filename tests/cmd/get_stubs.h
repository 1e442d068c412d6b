// Stubs for the reads of `get NAME` / `logs NAME` in namespace default.
#pragma once

#include <string>

#include "cmd_harness.h"

namespace get_stubs {

using nlohmann::json;
using trainctl::testing::FakeClient;

// The job kinds get and delete read (jobs::all_kinds()), numbered as job_path's.
inline constexpr int kKinds = 6;

inline std::string job_path(int kind, const std::string& name) {
  static const char* const bases[] = {"/apis/kubeflow.org/v1/namespaces/default/pytorchjobs/",
                                      "/apis/kubeflow.org/v2beta1/namespaces/default/mpijobs/",
                                      "/apis/batch.volcano.sh/v1alpha1/namespaces/default/jobs/",
                                      "/apis/batch/v1/namespaces/default/jobs/",
                                      "/apis/kubeflow.org/v1/namespaces/default/tfjobs/",
                                      "/apis/trainer.kubeflow.org/v1alpha1/namespaces/default/trainjobs/"};
  return bases[kind] + name;
}

inline bool shares_training_pods(int kind) { return kind <= 1 || kind == 4; }

inline std::string pods_path(int kind, const std::string& name, bool only = false) {
  // Without -T, PyTorchJob, MPIJob and TFJob share one list of training.kubeflow.org/job-name
  // pods.
  if (!only && shares_training_pods(kind))
    return "/api/v1/namespaces/default/pods?labelSelector=training.kubeflow.org%2Fjob-name%3D" + name + "&limit=100";
  const std::string sel[] = {"training.kubeflow.org%2Fjob-name%3D" + name +
                                 "%2Ctraining.kubeflow.org%2Foperator-name%3Dpytorchjob-controller",
                             "training.kubeflow.org%2Fjob-name%3D" + name +
                                 "%2Ctraining.kubeflow.org%2Foperator-name%3Dmpi-operator",
                             "volcano.sh%2Fjob-name%3D" + name,
                             "job-name%3D" + name,
                             "training.kubeflow.org%2Fjob-name%3D" + name +
                                 "%2Ctraining.kubeflow.org%2Foperator-name%3Dtfjob-controller",
                             "jobset.sigs.k8s.io%2Fjobset-name%3D" + name};
  return "/api/v1/namespaces/default/pods?labelSelector=" + sel[kind] + "&limit=100";
}

// Kind `kind` (0 PyTorch, 1 MPI, 2 Volcano, 3 operator-free, 4 TFJob, 5 TrainJob) holds `job` with
// `pods`; the other kinds answer 404 and no pods (unless `only`: -T was given, nothing else
// is read).
inline void stub_job(FakeClient& c, int kind, const std::string& name, const json& job, const json& pods,
                     bool only = false) {
  for (int k = 0; k < kKinds; ++k) {
    if (only && k != kind) continue;
    if (k == kind)
      c.on_get(job_path(k, name), job);
    else
      c.on_not_found(job_path(k, name));
    if (k != 0 && shares_training_pods(k) && !only) continue;  // the shared list, stubbed with kind 0
    const bool has_pods = k == kind || (!only && k == 0 && shares_training_pods(kind));
    c.on_get(pods_path(k, name, only), FakeClient::list(has_pods ? pods : json::array()));
  }
  // PyTorchJob and TFJob also read the pods of older releases (jobs/legacy_pods.h).
  if (!only || kind == 0 || kind == 4)
    c.on_get("/api/v1/namespaces/default/pods?labelSelector=group-name%3Dkubeflow.org%2C%21training.kubeflow.org%2F"
             "job-name&limit=100",
             FakeClient::list(json::array()));
}

// The TensorBoard read of get: services labelled role=tensorboard,release=NAME.
inline void stub_tensorboard(FakeClient& c, const std::string& name, const json& services) {
  c.on_get("/api/v1/namespaces/default/services?labelSelector=role%3Dtensorboard%2Crelease%3D" + name +
               "&limit=100",
           FakeClient::list(services));
}

// The extra round of get for a job that looks pending (jobs/pending_query.h), in namespace
// default: Warning events, PodGroups, nodes, pods that have not ended.
namespace pending_paths {
inline const std::string kWarnings =
    "/api/v1/namespaces/default/events?fieldSelector=type%3DWarning&limit=100";
inline const std::string kPodGroups =
    "/apis/scheduling.volcano.sh/v1beta1/namespaces/default/podgroups?limit=100";
inline const std::string kNodes = "/api/v1/nodes?limit=100";
inline const std::string kPods =
    "/api/v1/pods?fieldSelector=status.phase%21%3DFailed%2Cstatus.phase%21%3DSucceeded&limit=100";
}  // namespace pending_paths

// That round for a pending job none of whose pods waits for a node: the nodes and the
// cluster's pods are not read (an unstubbed request fails the test). PodGroups answer 404
// (Volcano is not installed).
inline void stub_pending_without_room(FakeClient& c, const json& warnings) {
  c.on_get(pending_paths::kWarnings, FakeClient::list(warnings));
  c.on_not_found(pending_paths::kPodGroups);
}

// Answers that round, nodes and pods included.
inline void stub_pending(FakeClient& c, const json& warnings, const json& nodes, const json& pods) {
  stub_pending_without_room(c, warnings);
  c.on_get(pending_paths::kNodes, FakeClient::list(nodes));
  c.on_get(pending_paths::kPods, FakeClient::list(pods));
}

inline json node(const std::string& name, bool ready, const std::string& ip,
                 const json& labels = json::object(), const json& capacity = json::object(),
                 const json& allocatable = json::object()) {
  return {{"metadata", {{"name", name}, {"labels", labels}}},
          {"status",
           {{"conditions", json::array({{{"type", "Ready"}, {"status", ready ? "True" : "False"}}})},
            {"addresses", json::array({{{"type", "InternalIP"}, {"address", ip}},
                                       {{"type", "Hostname"}, {"address", name}}})},
            {"capacity", capacity},
            {"allocatable", allocatable.empty() ? capacity : allocatable}}}};
}

}  // namespace get_stubs
