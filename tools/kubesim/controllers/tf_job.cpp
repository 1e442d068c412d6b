// TFJob: pods, services and status like kubeflow/training-operator v1.9.0
// (pkg/controller.v1/tensorflow/tfjob_controller.go on pkg/controller.v1/common).
#include "kubesim/controllers/tf_job.h"

#include "core/text.h"
#include "kubesim/controllers/job_conditions.h"
#include "kubesim/controllers/job_suspend.h"
#include "kubesim/controllers/kubeflow_replicas.h"
#include "kubesim/controllers/tf_config.h"

namespace kubesim {

using trainctl::ascii_lower;

namespace {

constexpr const char* kTfOperator = "tfjob-controller";

// UpdateJobStatus's order of the replica types (pods are created in the same order).
const char* const kTfStatusOrder[] = {"Chief", "Evaluator", "Master", "PS", "Worker"};

// util.go ContainsChiefOrMasterSpec.
bool tf_has_chief(const json& job) {
  const json& specs = tf_replica_specs(job);
  return specs.contains("Chief") || specs.contains("Master");
}

// tfjob_controller.go IsMasterRole: the Chief/Master, or worker 0 when there is neither.
bool tf_master_role(const json& job, const std::string& rtype, int index) {
  if (tf_has_chief(job)) return rtype == "Chief" || rtype == "Master";
  return rtype == "Worker" && index == 0;
}

}  // namespace

json TFJobController::make_pod(const json& job, const std::string& rtype, int index) {
  const std::string rt = ascii_lower(rtype);
  json pod = replica_pod(job, tf_replica_specs(job)[rtype], kTfOperator, rt, index,
                         tf_master_role(job, rtype, index), "Never");
  set_tf_pod_env(job, pod["spec"], rt, index);
  return pod;
}

json TFJobController::make_service(const json& job, const std::string& rtype, int index) {
  return replica_service(job, tf_replica_specs(job)[rtype], kTfOperator, "tensorflow", ascii_lower(rtype),
                         index);
}

void TFJobController::reconcile(const std::string& ns, const std::string& name) {
  auto job_ptr = m_ctx.store.get_shared(*m_ctx.tfjobs, ns, name);
  if (!job_ptr) return;
  const json job = tf_defaults(*job_ptr);  // r.Scheme.Default on a copy, never stored
  const ObjectList pods = operator_pods(m_ctx, job, kTfOperator);
  const std::string now = m_ctx.now_str();
  const std::string jname = meta_name(job);
  const std::string full = ns + "/" + jname;

  if (job_finished(job)) {
    clean_pods(m_ctx, job, pods, true);
    apply_ttl(m_ctx, *m_ctx.tfjobs, job);
    return;
  }
  json status = job.value("status", json::object());
  // onOwnerCreateFunc.
  update_training_condition(status, "Created", "TFJobCreated", "TFJob " + jname + " is created.", now);
  if (hold_suspended_kubeflow(m_ctx, *m_ctx.tfjobs, job, pods, status)) return;
  if (!status.contains("startTime")) status["startTime"] = now;

  const std::string limit_message = run_policy_limit_message(m_ctx, *m_ctx.tfjobs, job, status, pods);
  if (!limit_message.empty()) {
    update_training_condition(status, "Failed", "TFJobFailed", limit_message, now);
    if (!status.contains("completionTime")) status["completionTime"] = now;
    m_ctx.patch(*m_ctx.tfjobs, ns, name, [&](json& obj) { obj["status"] = status; });
    clean_pods(m_ctx, job, pods, true);
    return;
  }

  const json& specs = tf_replica_specs(job);
  ensure_job_pod_group(m_ctx, job, total_replica_count(specs));

  std::map<std::string, std::shared_ptr<const json>> by_name;
  for (const auto& p : pods) by_name[meta_name(*p)] = p;

  // common/pod.go ReconcilePods and service.go ReconcileServices, per replica type.
  std::map<std::string, ReplicaCounts> counts;
  for (const char* rtype : kTfStatusOrder) {
    if (!specs.contains(rtype)) continue;
    const ReplicaSource src{kTfOperator, "TFJob", "tensorflow", [&](int i) { return make_pod(job, rtype, i); },
                            [&](int i) { return make_service(job, rtype, i); }};
    counts[rtype] = reconcile_replica_pods(m_ctx, job, rtype, specs[rtype], by_name, src, status, now);
  }
  // IsWorker0Completed: worker 0 Succeeded with the tensorflow container's exit code 0.
  bool worker0_completed = !specs.contains("Worker");
  if (auto w0 = by_name.find(jname + "-worker-0"); w0 != by_name.end())
    worker0_completed |= phase_of(*w0->second) == "Succeeded" && pod_exit_code(*w0->second, "tensorflow") == 0;

  // tfjob_controller.go UpdateJobStatus.
  // The Restarting condition survives a Running update while a replica has failed.
  const bool restarting = status_condition_true(status, "Restarting");
  const json restarting_condition =
      restarting ? trainctl::object::find_condition(status["conditions"], "Restarting") : json();
  const bool all_workers = job["spec"].value("successPolicy", "") == "AllWorkers";
  const bool dynamic = job["spec"].value("enableDynamicWorker", false);
  bool finished = status_condition_true(status, "Failed");
  json replica_statuses = json::object();
  for (const char* rtype : kTfStatusOrder) {
    if (!specs.contains(rtype)) continue;
    const ReplicaCounts& n = counts[rtype];
    replica_statuses[rtype] = json::object();
    if (n.active) replica_statuses[rtype]["active"] = n.active;
    if (n.succeeded) replica_statuses[rtype]["succeeded"] = n.succeeded;
    if (n.failed) replica_statuses[rtype]["failed"] = n.failed;
    const int64_t expected = int_or(specs[rtype], "replicas", 1) - n.succeeded;
    const std::string type = rtype;
    bool succeeded = false;
    if (tf_has_chief(job)) {
      if (type == "Chief" || type == "Master") {
        if (n.active > 0)
          update_training_condition(status, "Running", "TFJobRunning", "TFJob " + full + " is running.", now);
        succeeded = expected == 0;
      }
    } else if (type == "Worker") {
      succeeded = expected == 0 || (worker0_completed && !all_workers);
      if (!succeeded && n.active > 0)
        update_training_condition(status, "Running", "TFJobRunning", "TFJob " + full + " is running.", now);
    }
    if (succeeded) {
      if (!status.contains("completionTime")) status["completionTime"] = now;
      update_training_condition(status, "Succeeded", "TFJobSucceeded",
                           "TFJob " + full + " successfully completed.", now);
      finished = true;
    }
    if (n.failed > 0 && restarting)
      update_training_condition(status, "Restarting", restarting_condition.value("reason", ""),
                           restarting_condition.value("message", ""), now);
    else if (n.failed > 0 && !(dynamic && type == "Worker")) {
      if (!status.contains("completionTime")) status["completionTime"] = now;
      update_training_condition(status, "Failed", "TFJobFailed",
                           "TFJob " + full + " has failed because " + std::to_string(n.failed) + " " + type +
                               " replica(s) failed.",
                           now);
      finished = true;
    }
  }
  status["replicaStatuses"] = replica_statuses;
  m_ctx.patch(*m_ctx.tfjobs, ns, name, [&](json& obj) { obj["status"] = status; });
  if (finished) after_job_finished(m_ctx, *m_ctx.tfjobs, ns, name);
}

}  // namespace kubesim
