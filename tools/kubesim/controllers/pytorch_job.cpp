// PyTorchJob: pods, services and status like kubeflow/training-operator v1.9.0.
#include "kubesim/controllers/pytorch_job.h"

#include <algorithm>

#include "core/text.h"
#include "kubesim/controllers/job_conditions.h"
#include "kubesim/controllers/job_suspend.h"
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
  update_training_condition(status, "Created", "PyTorchJobCreated", "PyTorchJob " + jname + " is created.", now);
  if (hold_suspended_kubeflow(m_ctx, *m_ctx.pytorchjobs, job, pods, status)) return;
  if (!status.contains("startTime")) status["startTime"] = now;

  std::map<std::string, std::shared_ptr<const json>> by_name;
  for (const auto& p : pods) by_name[meta_name(*p)] = p;

  // runPolicy limits: deadline and backoff.
  const std::string limit_message = run_policy_limit_message(m_ctx, *m_ctx.pytorchjobs, job, status, pods);
  if (!limit_message.empty()) {
    update_training_condition(status, "Failed", "PyTorchJobFailed", limit_message, now);
    if (!status.contains("completionTime")) status["completionTime"] = now;
    m_ctx.patch(*m_ctx.pytorchjobs, ns, name, [&](json& obj) { obj["status"] = status; });
    clean_pods(m_ctx, job, pods, true);
    return;
  }

  ensure_job_pod_group(m_ctx, job, total_replica_count(replica_specs(job)));

  // common/pod.go ReconcilePods per replica type, then pytorchjob_controller.go UpdateJobStatus.
  json replica_statuses = json::object();
  bool finished = false;
  const bool has_master = replica_specs(job).contains("Master");
  const bool elastic = job["spec"].contains("elasticPolicy");
  const std::string full = ns + "/" + jname;
  for (const auto& rtype : replica_types(job)) {
    const json& rs = replica_specs(job)[rtype];
    const ReplicaSource src{kOperator, "PyTorchJob", "pytorch", [&](int i) { return make_pod(job, rtype, i); },
                            [&](int i) { return make_service(job, rtype, i); }};
    const ReplicaCounts n = reconcile_replica_pods(m_ctx, job, rtype, rs, by_name, src, status, now);
    replica_statuses[rtype] = json::object();
    if (n.active) replica_statuses[rtype]["active"] = n.active;
    if (n.succeeded) replica_statuses[rtype]["succeeded"] = n.succeeded;
    if (n.failed) replica_statuses[rtype]["failed"] = n.failed;
  }
  for (const auto& rtype : replica_types(job)) {
    const json& rs = replica_specs(job)[rtype];
    const json& counts = replica_statuses[rtype];
    const int64_t active = counts.value("active", 0), succeeded = counts.value("succeeded", 0),
                  failed = counts.value("failed", 0);
    const int64_t replicas = replicas_of(rs);
    if (has_master && rtype == "Master") {
      if (active > 0)
        update_training_condition(status, "Running", "PyTorchJobRunning", "PyTorchJob " + jname + " is running.", now);
      if (replicas - succeeded == 0) {  // when master is succeed, the job is finished
        update_training_condition(status, "Succeeded", "PyTorchJobSucceeded",
                                  "PyTorchJob " + jname + " is successfully completed.", now);
        if (!status.contains("completionTime")) status["completionTime"] = now;
        finished = true;
        break;
      }
    } else if (!has_master && rtype == "Worker") {
      // All workers succeeded, or with an elasticPolicy any worker.
      if (replicas - succeeded == 0 || (elastic && succeeded > 0)) {
        update_training_condition(status, "Succeeded", "PyTorchJobSucceeded",
                                  "PyTorchJob " + full + " successfully completed.", now);
        if (!status.contains("completionTime")) status["completionTime"] = now;
        finished = true;
      } else if (active > 0) {
        update_training_condition(status, "Running", "PyTorchJobRunning", "PyTorchJob " + full + " is running.", now);
      }
    }
    if (failed > 0 && replicas > succeeded + active) {
      const std::string count = std::to_string(failed) + " " + rtype;
      if (rs.value("restartPolicy", "") != "Never") {
        update_training_condition(status, "Restarting", "PyTorchJobRestarting",
                                  "PyTorchJob " + jname + " is restarting because " + count + " replica(s) failed.",
                                  now);
      } else {
        update_training_condition(status, "Failed", "PyTorchJobFailed",
                                  "PyTorchJob " + jname + " is failed because " + count + " replica(s) failed.", now);
        if (!status.contains("completionTime")) status["completionTime"] = now;
      }
    }
  }
  finished = finished || status_condition_true(status, "Failed");
  status["replicaStatuses"] = replica_statuses;
  m_ctx.patch(*m_ctx.pytorchjobs, ns, name, [&](json& obj) { obj["status"] = status; });
  if (finished) after_job_finished(m_ctx, *m_ctx.pytorchjobs, ns, name);
}

}  // namespace kubesim
