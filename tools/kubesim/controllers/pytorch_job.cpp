// PyTorchJob: pods, services and status like kubeflow/training-operator v1.9.0.
#include "kubesim/controllers/pytorch_job.h"

#include <algorithm>

#include "core/text.h"
#include "kubesim/controllers/job_conditions.h"
#include "kubesim/controllers/kubeflow_replicas.h"
#include "kubesim/controllers/pod_status.h"
#include "kubesim/controllers/pytorch_env.h"
#include "kubesim/controllers/run_policy.h"

namespace kubesim {

using trainctl::ascii_lower;

namespace {

constexpr const char* kOperator = "pytorchjob-controller";

const json& replica_specs(const json& job) { return replica_specs_of(job, "pytorchReplicaSpecs"); }

int64_t replicas_of(const json& rs) { return int_or(rs, "replicas", 1); }

// Replica types in the operator's order: Master first.
std::vector<std::string> replica_types(const json& job) {
  std::vector<std::string> out;
  const json& specs = replica_specs(job);
  if (specs.contains("Master")) out.push_back("Master");
  for (auto it = specs.begin(); it != specs.end(); ++it)
    if (it.key() != "Master") out.push_back(it.key());
  return out;
}

}  // namespace

json PyTorchJobController::make_pod(const json& job, const std::string& rtype, int index) {
  const std::string rt = ascii_lower(rtype);
  json pod =
      replica_pod(job, replica_specs(job)[rtype], kOperator, rt, index, rtype == "Master", "OnFailure");
  // envvar.go setPodEnv, initcontainer.go setInitContainer (on the defaulted job).
  if (!set_pytorch_pod_env(job, pod["spec"], rt, index)) return json();  // "port not found": no pod
  return pod;
}

json PyTorchJobController::make_service(const json& job, const std::string& rtype, int index) {
  return replica_service(job, replica_specs(job)[rtype], kOperator, "pytorch", ascii_lower(rtype), index);
}

void PyTorchJobController::reconcile(const std::string& ns, const std::string& name) {
  auto job_ptr = m_ctx.store.get_shared(*m_ctx.pytorchjobs, ns, name);
  if (!job_ptr) return;
  // pytorchjob_controller.go Reconcile: r.Scheme.Default(pytorchjob) on a copy, never stored.
  const json job = pytorch_defaults(*job_ptr);
  // pytorchjob_controller.go GetPodsForJob: the namespace's pods matching GenLabels
  // (operator-name, job-name) and controlled by this job (util.JobControlledPodList). v1.9.0
  // overrides common/pod.go's ControllerRefManager here: nothing is adopted or released.
  const ObjectList pods = operator_pods(m_ctx, job, kOperator);
  const std::string now = m_ctx.now_str();
  const std::string jname = meta_name(job);

  if (job_finished(job)) {
    clean_pods(m_ctx, job, pods, true);
    apply_ttl(m_ctx, *m_ctx.pytorchjobs, job);
    return;
  }
  json status = job.value("status", json::object());
  update_job_condition(status, "Created", "PyTorchJobCreated", "PyTorchJob " + jname + " is created.", now);
  if (!status.contains("startTime")) status["startTime"] = now;

  std::map<std::string, std::shared_ptr<const json>> by_name;
  for (const auto& p : pods) by_name[meta_name(*p)] = p;

  // runPolicy limits: deadline and backoff.
  const std::string limit_message = run_policy_limit_message(m_ctx, *m_ctx.pytorchjobs, job, status, pods);
  if (!limit_message.empty()) {
    update_job_condition(status, "Failed", "PyTorchJobFailed", limit_message, now);
    if (!status.contains("completionTime")) status["completionTime"] = now;
    m_ctx.patch(*m_ctx.pytorchjobs, ns, name, [&](json& obj) { obj["status"] = status; });
    clean_pods(m_ctx, job, pods, true);
    return;
  }

  ensure_job_pod_group(m_ctx, job, total_replica_count(replica_specs(job)));

  json replica_statuses = json::object();
  bool finished = false;
  for (const auto& rtype : replica_types(job)) {
    const json& rs = replica_specs(job)[rtype];
    const int64_t replicas = replicas_of(rs);
    int64_t active = 0, succeeded = 0, failed = 0;
    bool permanent_failure = false;
    for (int i = 0; i < replicas; ++i) {
      const std::string pod_name = jname + "-" + ascii_lower(rtype) + "-" + std::to_string(i);
      auto it = by_name.find(pod_name);
      if (it == by_name.end()) {
        json pod = make_pod(job, rtype, i);
        if (pod.is_null()) continue;
        m_ctx.create_if_absent(*m_ctx.pods, std::move(pod));
        m_ctx.record_event(job, "Normal", "SuccessfulCreatePod", "Created pod: " + pod_name, kOperator);
      } else {
        const std::string phase = phase_of(*it->second);
        if (phase == "Running") ++active;
        if (phase == "Succeeded") ++succeeded;
        if (phase == "Failed") {
          ++failed;
          if (retryable_exit_code(pod_exit_code(*it->second)) &&
              rs.value("restartPolicy", "OnFailure") != "Never") {
            try {
              m_ctx.store.remove(*m_ctx.pods, ns, pod_name);
            } catch (const StatusError&) {
            }
          } else {
            permanent_failure = true;
          }
        }
      }
      if (m_ctx.services && !m_ctx.store.get_shared(*m_ctx.services, ns, pod_name)) {
        m_ctx.create_if_absent(*m_ctx.services, make_service(job, rtype, i));
        m_ctx.record_event(job, "Normal", "SuccessfulCreateService", "Created service: " + pod_name,
                           kOperator);
      }
    }
    replica_statuses[rtype] = json::object();
    if (active) replica_statuses[rtype]["active"] = active;
    if (succeeded) replica_statuses[rtype]["succeeded"] = succeeded;
    if (failed) replica_statuses[rtype]["failed"] = failed;
    const bool decides = rtype == "Master" || !replica_specs(job).contains("Master");
    if (decides && active > 0)
      update_job_condition(status, "Running", "PyTorchJobRunning", "PyTorchJob " + jname + " is running.",
                           now);
    if (decides && replicas - succeeded == 0) {
      update_job_condition(status, "Succeeded", "PyTorchJobSucceeded",
                           "PyTorchJob " + jname + " is successfully completed.", now);
      if (!status.contains("completionTime")) status["completionTime"] = now;
      finished = true;
    }
    if (!finished && failed > 0 && replicas > succeeded + active) {
      const std::string count = std::to_string(failed) + " " + rtype;
      if (permanent_failure || rs.value("restartPolicy", "OnFailure") == "Never") {
        update_job_condition(status, "Failed", "PyTorchJobFailed",
                             "PyTorchJob " + jname + " is failed because " + count + " replica(s) failed.",
                             now);
        if (!status.contains("completionTime")) status["completionTime"] = now;
        finished = true;
      } else {
        update_job_condition(
            status, "Restarting", "PyTorchJobRestarting",
            "PyTorchJob " + jname + " is restarting because " + count + " replica(s) failed.", now);
      }
    }
  }
  status["replicaStatuses"] = replica_statuses;
  m_ctx.patch(*m_ctx.pytorchjobs, ns, name, [&](json& obj) { obj["status"] = status; });
  if (finished) after_job_finished(m_ctx, *m_ctx.pytorchjobs, ns, name);
}

}  // namespace kubesim
