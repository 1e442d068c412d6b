#include "submit/create.h"

#include "core/errors.h"
#include "core/log.h"
#include "jobs/time.h"
#include "kube/answer_shape.h"
#include "kube/object_ops.h"
#include "submit/kueue_check.h"

namespace trainctl::submit {

using nlohmann::json;

namespace {

std::string describe(const json& o) {
  return o.value("kind", "object") + " " + o["metadata"].value("name", "");
}

// The answer to the job's create was lost (connection closed, unreadable body): the server
// may have created it all the same. A job of that name created within the last minute is
// taken to be this one and deleted; its dependents follow by owner reference.
std::string remove_job_if_created(kube::Client& client, const kube::Resource& resource, const std::string& ns,
                                  const std::string& name) {
  try {
    const json found = kube::get_object(client, resource, ns, name);
    const auto created = jobs::parse_time(found["metadata"].value("creationTimestamp", ""));
    const auto now = std::chrono::system_clock::now();
    if (!created || *created < now - std::chrono::minutes(1) || *created > now + std::chrono::minutes(1))
      return "; a job of that name exists and was not created just now: left in place";
    kube::delete_object(client, resource, ns, name, kube::Propagation::Background);
    return "; the server had created the job all the same: deleted it";
  } catch (const ApiError& e) {
    if (e.is_not_found()) return "";
    return std::string("; the job may have been created: check with trainctl get ") + name;
  } catch (const std::exception&) {
    return std::string("; the job may have been created: check with trainctl get ") + name;
  }
}

// Deletes what was created in `ns`, newest first. Returns a note for the error message.
std::string roll_back(kube::Client& client, const std::string& ns,
                      const std::vector<std::pair<kube::Resource, json>>& created) {
  if (created.empty()) return "";
  std::vector<std::string> failed;
  for (auto it = created.rbegin(); it != created.rend(); ++it) {
    try {
      kube::delete_object(client, it->first, ns, it->second["metadata"].value("name", ""),
                          kube::Propagation::Background);
    } catch (const ApiError& e) {
      if (!e.is_not_found()) failed.push_back(describe(it->second) + " (" + e.what() + ")");
    } catch (const std::exception& e) {
      failed.push_back(describe(it->second) + " (" + e.what() + ")");
    }
  }
  std::string note =
      "; deleted the " + std::to_string(created.size() - failed.size()) + " object(s) created before it";
  if (!failed.empty()) {
    note += "; could not delete";
    for (size_t i = 0; i < failed.size(); ++i) note += (i ? ", " : " ") + failed[i];
  }
  return note;
}

// Deletes the job just created, which Kueue did not hold; its pods and Services follow by
// owner reference. Returns what became of it, for the error message.
std::string remove_unqueued_job(kube::Client& client, const kube::Resource& resource, const std::string& ns,
                                const std::string& name) {
  try {
    kube::delete_object(client, resource, ns, name, kube::Propagation::Background);
  } catch (const ApiError& e) {
    if (!e.is_not_found())
      return std::string("could not delete it (") + e.what() + "): delete it with trainctl delete " + name;
  } catch (const std::exception& e) {
    return std::string("could not delete it (") + e.what() + "): delete it with trainctl delete " + name;
  }
  return "deleted it";
}

// POSTs the job; throws the errors create.h lists for it.
json create_job(kube::Client& client, const SubmitKind& kind, const std::string& ns, const json& job) {
  const std::string job_name = job["metadata"].value("name", "");
  const kube::Resource job_resource = kube::resource_of(job);
  json created_job;
  try {
    created_job = kube::create_object(client, job_resource, ns, job);
  } catch (const ApiError& e) {
    if (e.is_conflict()) throw Error("job " + job_name + " already exists in namespace " + ns);
    if (e.is_not_found()) {
      const std::string msg = e.what();
      if (msg.find("namespaces \"" + ns + "\" not found") != std::string::npos)
        throw NotFoundError("namespace " + ns + " not found");
      throw Error(kind.job.resource.display() +
                  " is not installed on this cluster: " + kind.rules.not_installed_hint);
    }
    throw Error("creating " + describe(job) + " failed: " + e.what(), e.code());
  } catch (const TransportError& e) {
    // Refused, or a host that does not resolve: the create never reached the server.
    if (!e.may_have_reached_server())
      throw Error("creating " + describe(job) + " failed: " + e.what(), e.code());
    const std::string note = remove_job_if_created(client, job_resource, ns, job_name);
    throw Error("creating " + describe(job) + " failed: " + e.what() + note, e.code());
  } catch (const Error& e) {
    const std::string note = remove_job_if_created(client, job_resource, ns, job_name);
    throw Error("creating " + describe(job) + " failed: " + e.what() + note, e.code());
  }
  log::info("created {} in namespace {}", describe(job), ns);
  // --kueue-queue holds the job only if Kueue's webhook suspended it (kueue_check.h): before
  // anything else is created, a job that would run past its queue is taken back.
  if (const std::string queue = kueue_queue_of(job); !queue.empty() && !kueue_suspended(kind, created_job)) {
    const bool installed = kueue_installed(client);
    const std::string removed = remove_unqueued_job(client, job_resource, ns, job_name);
    throw Error(kueue_not_suspended_message(kind, job_name, queue, installed, removed));
  }
  return created_job;
}

// Creates one dependent; on failure deletes `created` and throws what failed.
json create_dependent(kube::Client& client, const std::string& ns, const json& obj,
                      std::vector<std::pair<kube::Resource, json>>& created) {
  try {
    const kube::Resource resource = kube::resource_of(obj);
    json answer = kube::create_object(client, resource, ns, obj);
    log::info("created {}", describe(obj));
    created.emplace_back(resource, answer.is_object() && answer.contains("metadata") ? answer : obj);
    return answer;
  } catch (const Error& e) {
    const std::string note = roll_back(client, ns, created);
    throw Error("creating " + describe(obj) + " failed: " + e.what() + note, e.code());
  } catch (const std::exception& e) {  // e.g. an unreadable answer
    const std::string note = roll_back(client, ns, created);
    throw Error("creating " + describe(obj) + " failed: " + e.what() + note);
  }
}

}  // namespace

std::vector<json> create_all(kube::Client& client, const SubmitKind& kind, const std::string& ns,
                             std::vector<json> manifests) {
  std::vector<json> out;
  if (manifests.empty()) return out;
  const json& job = manifests[0];
  const std::string job_name = job["metadata"].value("name", "");
  const kube::Resource job_resource = kube::resource_of(job);
  // What the job's admission reads (SubmitKind::created_before_job) exists before it,
  // unowned until the job has a uid; any failure from here on deletes it again.
  std::vector<std::pair<kube::Resource, json>> before;
  std::vector<size_t> after;
  for (size_t i = 1; i < manifests.size(); ++i) {
    if (kind.created_before_job(manifests[i]))
      create_dependent(client, ns, manifests[i], before);
    else
      after.push_back(i);
  }
  json created_job;
  try {
    created_job = create_job(client, kind, ns, job);
  } catch (const Error& e) {
    if (before.empty()) throw;
    throw Error(std::string(e.what()) + roll_back(client, ns, before), e.code());
  }
  std::vector<std::pair<kube::Resource, json>> created = {{job_resource, created_job}};
  out.push_back(created_job);

  // Owned, not controlled: trainctl is not the controller of what it creates beside the job,
  // and an operator that claims objects through a ControllerRefManager releases every object
  // it *controls* whose labels do not match the job's selector, which a TensorBoard Service
  // never matches (ClaimObject in pkg/controller.v1/control/controller_ref_manager.go; the
  // standalone tf-operator of kubeflow/training-operator v1.1-branch lists every Service of the
  // namespace before claiming, pkg/common/jobcontroller/service.go). The garbage collector
  // follows every ownerReference, controller or not; `delete` also removes these objects itself.
  const json owner = {
      {"apiVersion", job.value("apiVersion", "")},
      {"kind", job.value("kind", "")},
      {"name", job_name},
      {"uid", created_job.contains("metadata") ? created_job["metadata"].value("uid", "") : ""},
      {"controller", false},
      {"blockOwnerDeletion", true}};
  for (size_t i = 0; i < before.size(); ++i) {
    const json& obj = before[i].second;
    const json patch = {{"metadata", {{"ownerReferences", json::array({owner})}}}};
    try {
      out.push_back(
          kube::merge_patch_object(client, before[i].first, ns, obj["metadata"].value("name", ""), patch));
    } catch (const Error& e) {
      created.insert(created.begin(), before.begin(), before.end());
      const std::string note = roll_back(client, ns, created);
      throw Error("making " + describe(obj) + " the job's failed: " + e.what() + note, e.code());
    }
  }
  created.insert(created.begin(), before.begin(), before.end());
  for (size_t i : after) {
    json obj = std::move(manifests[i]);
    obj["metadata"]["ownerReferences"] = json::array({owner});
    out.push_back(create_dependent(client, ns, obj, created));
  }
  return out;
}

}  // namespace trainctl::submit
