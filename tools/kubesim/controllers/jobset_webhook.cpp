// JobSet's validating webhook (see jobset_webhook.h; kubernetes-sigs/jobset v0.12.0
// pkg/webhooks/jobset_webhook.go).
#include "kubesim/controllers/jobset_webhook.h"

#include <algorithm>
#include <map>
#include <regex>
#include <set>

#include "kubesim/controllers/context.h"
#include "kubesim/rest.h"

namespace kubesim {

namespace {

struct FieldErr {
  std::string type, field, body;
};

// A plain error of the webhook becomes field.InternalError(nil, err) (toFieldErrorList).
FieldErr internal_err(const std::string& msg) { return {"InternalError", "<nil>", "Internal error: " + msg}; }
FieldErr invalid_err(const std::string& field, const json& value, const std::string& detail) {
  return {"FieldValueInvalid", field, "Invalid value: " + value.dump() + ": " + detail};
}

// validation.IsDNS1035Label with the webhook's replacement of the length message.
std::vector<std::string> dns1035_errors(const std::string& v, const std::string& too_long) {
  std::vector<std::string> out;
  if (v.size() > 63) out.push_back(too_long);
  static const std::regex re("[a-z]([-a-z0-9]*[a-z0-9])?");
  if (!std::regex_match(v, re)) {
    const std::string why = check_dns1035_label(v.size() > 63 ? std::string("-") : v);
    out.push_back(why);
  }
  return out;
}

StatusError denial(const json& js, const std::vector<FieldErr>& errs) {
  const std::string name = meta_name(js);
  std::string msg;
  json causes = json::array();
  std::set<std::string> seen;
  std::vector<std::string> parts;
  for (const auto& e : errs) {
    causes.push_back({{"reason", e.type}, {"message", e.body}, {"field", e.field}});
    const std::string line = e.field + ": " + e.body;
    if (seen.insert(line).second) parts.push_back(line);
  }
  if (parts.size() == 1) msg = parts[0];
  else {
    msg = "[";
    for (size_t i = 0; i < parts.size(); ++i) msg += (i ? ", " : "") + parts[i];
    msg += "]";
  }
  return StatusError(422, "Invalid",
                     "admission webhook \"vjobset.kb.io\" denied the request: JobSet.jobset.x-k8s.io \"" + name +
                         "\" is invalid: " + msg,
                     {{"name", name}, {"group", "jobset.x-k8s.io"}, {"kind", "JobSet"}, {"causes", causes}});
}

void validate_failure_policy(const json& spec, const std::set<std::string>& rjobs, std::vector<FieldErr>& errs) {
  const json fp = spec.value("failurePolicy", json());
  if (!fp.is_object()) return;
  static const std::set<std::string> reasons = {"BackoffLimitExceeded", "DeadlineExceeded", "FailedIndexes",
                                                "MaxFailedIndexesExceeded", "PodFailurePolicy"};
  static const std::regex rule_re("^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$");
  std::map<std::string, std::vector<size_t>> by_name;
  size_t i = 0;
  for (const auto& rule : fp.value("rules", json::array())) {
    const std::string action = rule.value("action", "");
    if (action == "RestartJob" || action == "RestartJobAndIgnoreMaxRestarts") {
      errs.push_back(internal_err("RestartJob and RestartJobAndIgnoreMaxRestarts failure policy actions are not "
                                  "allowed when RestartJob feature gate is disabled"));
      return;
    }
    const std::string name = rule.value("name", "");
    if (name.empty() || name.size() > 128)
      errs.push_back(internal_err("invalid failure policy rule name of length " + std::to_string(name.size()) +
                                  ", the rule name must be at least 1 characters long and at most 128 characters long"));
    by_name[name].push_back(i++);
    if (!std::regex_match(name, rule_re))
      errs.push_back(internal_err("invalid failure policy rule name '" + name +
                                  "', a failure policy rule name must start with an alphabetic character, optionally "
                                  "followed by a string of alphanumeric characters or '_,:', and must end with an "
                                  "alphanumeric character or '_'"));
    for (const auto& t : rule.value("targetReplicatedJobs", json::array()))
      if (!rjobs.count(t.get<std::string>()))
        errs.push_back(internal_err("invalid replicatedJob name '" + t.get<std::string>() +
                                    "' in failure policy does not appear in .spec.ReplicatedJobs"));
    for (const auto& r : rule.value("onJobFailureReasons", json::array()))
      if (!reasons.count(r.get<std::string>()))
        errs.push_back(internal_err("invalid job failure reason '" + r.get<std::string>() +
                                    "' in failure policy is not a recognized job failure reason"));
  }
  for (const auto& [name, idx] : by_name)
    if (idx.size() > 1) {
      std::string list = "[";
      for (size_t k = 0; k < idx.size(); ++k) list += (k ? " " : "") + std::to_string(idx[k]);
      errs.push_back(internal_err("rule names are not unique, rules with indices " + list + "] all have the same name '" +
                                  name + "'"));
    }
}

std::vector<FieldErr> validate_create(const json& js) {
  std::vector<FieldErr> errs;
  const json spec = js.value("spec", json::object());
  const std::string name = meta_name(js);
  const json rjobs = spec.value("replicatedJobs", json::array());
  if (spec.value("failurePolicy", json::object()).value("restartStrategy", "") == "InPlaceRestart")
    errs.push_back(internal_err("InPlaceRestart restart strategy cannot be set when InPlaceRestart feature gate is disabled"));
  if (!rjobs.empty() && rjobs[0].contains("dependsOn") && !rjobs[0]["dependsOn"].is_null())
    errs.push_back(internal_err("DependsOn can't be set for the first ReplicatedJob"));
  const std::string subdomain = spec.value("network", json::object()).value("subdomain", "");
  if (!subdomain.empty()) {
    if (const std::string why = check_dns_subdomain(subdomain); !why.empty())
      errs.push_back(invalid_err("spec.network.subdomain", subdomain, why));
    for (const auto& why : dns1035_errors(subdomain, ".spec.network.subdomain is too long, must be less than 63 characters"))
      errs.push_back(invalid_err("spec.network.subdomain", subdomain, why));
  }
  if (spec.contains("managedBy") && spec["managedBy"].is_string()) {
    const std::string m = spec["managedBy"];
    if (m.find('/') == std::string::npos || m.front() == '/' || m.back() == '/')
      errs.push_back(invalid_err("spec.managedBy", m, "must be a domain-prefixed path (such as \"acme.io/foo\")"));
    if (m.size() > 63) errs.push_back({"FieldValueTooLong", "spec.managedBy", "Too long: may not be more than 63 bytes"});
  }
  std::set<std::string> names;
  for (size_t i = 0; i < rjobs.size(); ++i) {
    const json& rj = rjobs[i];
    const std::string path = "spec.replicatedJobs[" + std::to_string(i) + "]";
    const std::string rname = rj.value("name", "");
    names.insert(rname);
    const int64_t replicas = int_or(rj, "replicas", 1);
    const json job = rj.value("template", json::object()).value("spec", json::object());
    if (job.value("parallelism", int64_t{1}) * replicas > 2147483647)
      errs.push_back(internal_err("the product of replicas and parallelism must not exceed 2147483647 for replicatedJob '" +
                                  rname + "'"));
    for (const auto& why : dns1035_errors(rj.value("groupName", "default"),
                                          ".spec.replicatedJob[].groupName is too long, must be less than 63 characters"))
      errs.push_back(invalid_err(path + ".groupName", rj.value("groupName", "default"), why));
    const std::string longest_job = name + "-" + rname + "-" + std::to_string(replicas - 1);
    for (const auto& why : dns1035_errors(
             longest_job, "JobSet name is too long, job names generated for this JobSet will exceed 63 characters"))
      errs.push_back(invalid_err(path + ".name", longest_job, why));
    if (job.value("completionMode", "") == "Indexed" && job.contains("completions") && job["completions"].is_number()) {
      const std::string pod = longest_job + "-" + std::to_string(job["completions"].get<int64_t>() - 1) + "-abcde";
      for (const auto& why :
           dns1035_errors(pod, "JobSet name is too long, pod names generated for this JobSet will exceed 63 characters"))
        errs.push_back(invalid_err(path + ".name", longest_job, why));
    }
    for (const auto& d : rj.value("dependsOn", json::array()))
      if (!names.count(d.value("name", "")))
        errs.push_back(internal_err("replicatedJob: " + rname + " cannot depend on replicatedJob: " + d.value("name", "")));
  }
  for (const auto& t : spec.value("successPolicy", json::object()).value("targetReplicatedJobs", json::array()))
    if (!names.count(t.get<std::string>()))
      errs.push_back(internal_err("invalid replicatedJob name '" + t.get<std::string>() +
                                  "' does not appear in .spec.ReplicatedJobs"));
  validate_failure_policy(spec, names, errs);
  return errs;
}

std::vector<FieldErr> validate_update(const json& js, const json& old) {
  std::vector<FieldErr> errs;
  json munged = js.value("spec", json::object()).value("replicatedJobs", json::array());
  const json old_rjobs = old.value("spec", json::object()).value("replicatedJobs", json::array());
  const bool suspended = old.value("spec", json::object()).value("suspend", false) ||
                         js.value("spec", json::object()).value("suspend", false);
  if (suspended)
    for (auto& rj : munged)
      for (const auto& o : old_rjobs) {
        if (o.value("name", "") != rj.value("name", "")) continue;
        // Kueue's fields: pod template labels, annotations, nodeSelector, tolerations, schedulingGates.
        const json opod = o.value("template", json::object()).value("spec", json::object()).value("template", json::object());
        json& pod = rj["template"]["spec"]["template"];
        json& md = pod["metadata"];
        if (!md.is_object()) md = json::object();
        for (const char* k : {"labels", "annotations"}) {
          const json ov = opod.value("metadata", json::object()).value(k, json());
          if (ov.is_null()) md.erase(k);
          else md[k] = ov;
        }
        if (md.empty() && !opod.contains("metadata")) pod.erase("metadata");
        json& ps = pod["spec"];
        if (!ps.is_object()) ps = json::object();
        for (const char* k : {"nodeSelector", "tolerations", "schedulingGates"}) {
          const json ov = opod.value("spec", json::object()).value(k, json());
          if (ov.is_null()) ps.erase(k);
          else ps[k] = ov;
        }
      }
  if (munged != old_rjobs) errs.push_back(invalid_err("spec.replicatedJobs", munged, "field is immutable"));
  if (js.value("spec", json::object()).value("managedBy", json()) != old.value("spec", json::object()).value("managedBy", json()))
    errs.push_back(invalid_err("spec.managedBy", js["spec"].value("managedBy", json()), "field is immutable"));
  return errs;
}

}  // namespace

std::optional<StatusError> jobset_webhook_validate(const json& js, const json* old) {
  const std::vector<FieldErr> errs = old ? validate_update(js, *old) : validate_create(js);
  if (errs.empty()) return std::nullopt;
  return denial(js, errs);
}

}  // namespace kubesim
