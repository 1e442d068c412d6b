#include "submit/kueue_check.h"

#include "core/errors.h"
#include "kube/json_util.h"
#include "kube/queue_resources.h"

namespace trainctl::submit {

using nlohmann::json;

std::string kueue_queue_of(const json& job) { return kube::label(job, "kueue.x-k8s.io/queue-name"); }

bool kueue_suspended(const SubmitKind& kind, const json& created) {
  const std::string& field = kind.rules.kueue.suspend_field;
  if (field.empty()) return true;
  const json* at = &created;
  for (size_t start = 0; start <= field.size();) {
    size_t dot = field.find('.', start);
    if (dot == std::string::npos) dot = field.size();
    const std::string key = field.substr(start, dot - start);
    if (!at->is_object() || !at->contains(key)) return false;
    at = &(*at)[key];
    start = dot + 1;
  }
  return at->is_boolean() && at->get<bool>();
}

bool kueue_installed(kube::Client& client) {
  try {
    client.get_json(kube::api_group_path(kube::kKueueGroup));
    return true;
  } catch (const ApiError& e) {
    return !e.is_not_found();
  } catch (const Error&) {
    return true;
  }
}

std::string kueue_not_suspended_message(const SubmitKind& kind, const std::string& job_name,
                                        const std::string& queue, bool kueue_installed,
                                        const std::string& removed) {
  const KueueIntegration& k = kind.rules.kueue;
  const std::string job = kind.job.resource.kind + " " + job_name;
  if (!kueue_installed)
    return "--kueue-queue " + queue + ": Kueue is not installed on this cluster (no kueue.x-k8s.io API), so " + job +
           " would start at once instead of waiting in a queue; " + removed +
           ". Submit it without --kueue-queue, or install Kueue";
  std::string msg = "--kueue-queue " + queue + ": Kueue did not suspend " + job + ", so it would start at once past " +
                    "the queue's quota: the " + k.framework + " integration is not enabled in this cluster's Kueue";
  if (!k.off_by_default_from.empty()) msg += " (Kueue " + k.off_by_default_from + " and later ship it disabled)";
  msg += "; " + removed + ". ";
  const std::string admin = "ask the cluster admin to add " + k.framework + " to integrations.frameworks in Kueue's configuration";
  if (k.instead.empty()) return msg + "To queue it, " + admin;
  return msg + "Instead, " + k.instead + ", or " + admin;
}

}  // namespace trainctl::submit
