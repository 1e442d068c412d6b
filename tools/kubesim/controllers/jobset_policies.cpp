// A JobSet's conditions, success and failure policies (kubernetes-sigs/jobset v0.12.0
// pkg/controllers/jobset_controller.go setCondition, updateCondition,
// setJobSetCompletedCondition; success_policy.go; failure_policy.go; depends_on.go;
// pkg/constants/constants.go for the reasons and messages).
#include <algorithm>
#include <regex>

#include "kubesim/controllers/jobset_run.h"

namespace kubesim {

namespace {

// The Job's Failed=True condition, or nullptr.
const json* job_failed_condition(const json& job) {
  return condition_true(job, "Failed") ? &trainctl::object::condition(job, "Failed") : nullptr;
}

std::string rjob_of(const json& job) { return label(job, kReplicatedJobNameKey); }

// findFirstFailedJob: the Job whose Failed condition is the oldest.
std::shared_ptr<const json> first_failed(const std::vector<std::shared_ptr<const json>>& jobs) {
  std::shared_ptr<const json> first;
  std::string first_time;
  for (const auto& j : jobs) {
    const json* c = job_failed_condition(*j);
    if (!c) continue;
    const std::string t = c->value("lastTransitionTime", "");
    if (!first || t < first_time) {
      first = j;
      first_time = t;
    }
  }
  return first;
}

bool exclusive(const std::string& a, const std::string& b) {
  return (a == "StartupPolicyInProgress" && b == "StartupPolicyCompleted") ||
         (a == "StartupPolicyCompleted" && b == "StartupPolicyInProgress");
}

bool rule_applies(const json& rule, const json& job) {
  const json* cond = job_failed_condition(job);
  if (!cond) return false;
  const json reasons = rule.value("onJobFailureReasons", json::array());
  if (!reasons.empty() &&
      std::find(reasons.begin(), reasons.end(), json(cond->value("reason", ""))) == reasons.end())
    return false;
  const json patterns = rule.value("onJobFailureMessagePatterns", json::array());
  if (!patterns.empty()) {
    bool any = false;
    for (const auto& p : patterns) {
      try {
        any = any || std::regex_search(cond->value("message", ""), std::regex(p.get<std::string>()));
      } catch (const std::regex_error&) {
        // an invalid pattern is logged and skipped upstream
      }
    }
    if (!any) return false;
  }
  const std::string parent = rjob_of(job);
  if (parent.empty()) return false;
  const json targets = rule.value("targetReplicatedJobs", json::array());
  return targets.empty() || std::find(targets.begin(), targets.end(), json(parent)) != targets.end();
}

}  // namespace

void JobSetRun::set_condition(const std::string& type, bool value, const std::string& reason,
                              const std::string& message, const std::string& event_type) {
  json& conds = status()["conditions"];
  if (!conds.is_array()) conds = json::array();
  const std::string st = value ? "True" : "False";
  json cond = {{"type", type}, {"status", st}, {"reason", reason}, {"message", message}, {"lastTransitionTime", ctx.now_str()}};
  bool found = false, changed = false;
  for (auto& cur : conds) {
    if (cur.value("type", "") == type) {
      if (cur.value("status", "") != st) {
        cur = cond;
        changed = true;
      } else if (cur.value("reason", "") != reason || cur.value("message", "") != message) {
        cond["lastTransitionTime"] = cur.value("lastTransitionTime", "");
        cur = cond;
        changed = true;
      }
      found = true;
    } else if (exclusive(cur.value("type", ""), type) && cur.value("status", "") == "True" && value) {
      cur["status"] = "False";
      changed = true;
    }
  }
  if (!found && value) {
    conds.push_back(cond);
    changed = true;
  }
  if (conds.empty()) status().erase("conditions");
  if (!changed) return;
  update = true;
  events.emplace_back(event_type, reason, message);
}

void JobSetRun::set_restarting_false(const std::string& reason, const std::string& message) {
  set_condition("RestartingJobSet", false, reason, message, "Normal");
}

void JobSetRun::set_completed() {
  set_condition("Completed", true, "AllJobsCompleted", "jobset completed successfully", "Normal");
  set_restarting_false("JobSetCompleted", "jobset completed successfully");
  status()["terminalState"] = "Completed";
  update = true;
}

void JobSetRun::set_failed(const std::string& reason, const std::string& message) {
  set_condition("Failed", true, reason, message, "Warning");
  set_restarting_false("JobSetFailed", "jobset failed");
  status()["terminalState"] = "Failed";
  update = true;
}

bool JobSetRun::finished() const {
  return condition_true(js, "Completed") || condition_true(js, "Failed");
}

void JobSetRun::execute_failure_policy() {
  const json policy = spec().value("failurePolicy", json());
  auto with_first = [](const std::string& msg, const std::shared_ptr<const json>& job) {
    return msg + " (first failed job: " + (job ? meta_name(*job) : std::string()) + ")";
  };
  if (!policy.is_object()) {
    set_failed("FailedJobs", with_first("jobset failed due to one or more job failures", first_failed(failed)));
    return;
  }
  // findFirstFailedPolicyRuleAndJob: the first rule some failed Job matches, and its earliest.
  const json* rule = nullptr;
  std::shared_ptr<const json> job;
  const json rules = policy.value("rules", json::array());  // `rule` points into it
  for (const auto& r : rules) {
    std::vector<std::shared_ptr<const json>> matching;
    for (const auto& j : failed)
      if (rule_applies(r, *j)) matching.push_back(j);
    if (matching.empty()) continue;
    rule = &r;
    job = first_failed(matching);
    break;
  }
  std::string action = "RestartJobSet";
  if (rule) action = rule->value("action", "RestartJobSet");
  else job = first_failed(failed);
  if (action == "FailJobSet") {
    set_failed("FailJobSetFailurePolicyAction", with_first("applying FailJobSet failure policy action", job));
    return;
  }
  const bool counts = action == "RestartJobSet";
  const int64_t towards_max = status().value("restartsCountTowardsMax", 0);
  if (counts && towards_max >= int_or(policy, "maxRestarts", 0)) {
    set_failed("ReachedMaxRestarts", with_first("jobset failed due to reaching max number of restarts", job));
    return;
  }
  const std::string base = counts ? "applying RestartJobSet failure policy action"
                                  : "applying RestartJobSetAndIgnoreMaxRestarts failure policy action";
  const std::string message = with_first(base, job);
  status()["restarts"] = restarts() + 1;
  if (counts) status()["restartsCountTowardsMax"] = towards_max + 1;
  update = true;
  set_condition("RestartingJobSet", true,
                rule ? "FailurePolicy_" + rule->value("name", "") : std::string("DefaultFailurePolicy"), message,
                "Warning");
  events.emplace_back("Warning",
                      counts ? "RestartJobSetFailurePolicyAction" : "RestartJobSetAndIgnoreMaxRestartsFailurePolicyAction",
                      message);
}

bool JobSetRun::execute_success_policy() {
  const json sp = spec().value("successPolicy", json::object());
  const json targets = sp.value("targetReplicatedJobs", json::array());
  auto targeted = [&](const std::string& name) {
    return targets.empty() || std::find(targets.begin(), targets.end(), json(name)) != targets.end();
  };
  int64_t matching = 0, expected = 0;
  for (const auto& j : successful)
    if (targeted(rjob_of(*j))) ++matching;
  if (sp.value("operator", "All") == "Any") {
    expected = 1;
  } else {
    for (const auto& rj : spec().value("replicatedJobs", json::array()))
      if (targeted(rj.value("name", ""))) expected += int_or(rj, "replicas", 1);
  }
  if (matching < expected) return false;
  set_completed();
  return true;
}

const json* JobSetRun::rjob_status(const std::string& name) const {
  for (const auto& s : statuses)
    if (s.value("name", "") == name) return &s;
  return nullptr;
}

bool JobSetRun::dependencies_reached(const json& rjob) const {
  for (const auto& d : rjob.value("dependsOn", json::array())) {
    const json* s = rjob_status(d.value("name", ""));
    if (!s) return false;
    int64_t replicas = 0;
    for (const auto& rj : spec().value("replicatedJobs", json::array()))
      if (rj.value("name", "") == d.value("name", "")) replicas = int_or(rj, "replicas", 1);
    const int64_t ready = s->value("ready", 0), failed_n = s->value("failed", 0), succeeded = s->value("succeeded", 0);
    if (d.value("status", "") == "Complete" && replicas != succeeded) return false;
    if (d.value("status", "") == "Ready" && replicas != ready + failed_n + succeeded) return false;
  }
  return true;
}

}  // namespace kubesim
