// One reconcile of a JobSet (jobset.h), shared by jobset.cpp (the steps) and
// jobset_policies.cpp (conditions, success and failure policies). Internal to the JobSet
// controller.
#pragma once

#include <tuple>
#include <vector>

#include "kubesim/controllers/context.h"
#include "kubesim/controllers/trainer_model.h"

namespace kubesim {

struct JobSetRun {
  JobSetRun(Context& c, const TrainerTypes& types, json jobset) : ctx(c), t(types), js(std::move(jobset)) {}

  Context& ctx;
  const TrainerTypes& t;
  json js;              // the JobSet with its defaults; js["status"] is what the reconcile writes
  bool update = false;  // the status changed (statusUpdateOpts.shouldUpdate)
  std::vector<std::tuple<std::string, std::string, std::string>> events;  // type, reason, message
  std::vector<std::shared_ptr<const json>> previous, active, failed, successful;
  json statuses = json::array();  // calculateReplicatedJobStatuses

  json& status() { return js["status"]; }
  const json& spec() const { return js["spec"]; }
  bool suspended() const { return js["spec"].value("suspend", false); }
  int64_t restarts() const { return js.value("status", json::object()).value("restarts", 0); }

  // setCondition/updateCondition: a new type is added only when True; a changed status gets a
  // new lastTransitionTime, a changed reason or message keeps it; an event per change.
  void set_condition(const std::string& type, bool value, const std::string& reason, const std::string& message,
                     const std::string& event_type);
  void set_restarting_false(const std::string& reason, const std::string& message);
  void set_completed();
  void set_failed(const std::string& reason, const std::string& message);
  bool finished() const;

  // failure_policy.go executeFailurePolicy (some Job failed).
  void execute_failure_policy();
  // success_policy.go: true when the JobSet completed.
  bool execute_success_policy();
  // Replicated job `name`'s computed status, or nullptr.
  const json* rjob_status(const std::string& name) const;
  // depends_on.go dependencyReachedStatus.
  bool dependencies_reached(const json& rjob) const;
};

}  // namespace kubesim
