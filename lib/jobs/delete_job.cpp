#include "jobs/delete_job.h"

#include "core/errors.h"
#include "jobs/job_dependents.h"
#include "jobs/json_util.h"
#include "kube/object_ops.h"

namespace trainctl::jobs {

namespace {

// Deletes in the foreground. True when the object is still there, being deleted (the answer
// is the object with its deletionTimestamp; a removed object comes back as a Success Status).
bool delete_foreground(kube::Client& client, const kube::Resource& resource, const std::string& ns,
                       const std::string& name) {
  const auto answer = kube::delete_object(client, resource, ns, name, kube::Propagation::Foreground);
  return answer.is_object() && answer.value("kind", "") != "Status" &&
         at_path(answer, {"metadata", "deletionTimestamp"}).is_string();
}

}  // namespace

Deleted delete_job(kube::Client& client, const std::string& ns, const NameMatch& match) {
  const JobKind& kind = match.kind();
  std::vector<Dependent> dependents;
  bool terminating = false;
  try {
    dependents = find_dependents(client, kind, ns, match.name, str(at(match.object, "metadata"), "uid"));
    terminating = delete_foreground(client, kind.resource, ns, match.name);
  } catch (const ApiError& e) {
    if (!e.is_not_found()) throw;
    NameMatch gone = match;
    gone.outcome = NameMatch::Outcome::Missing;
    throw NotFoundError(gone.message(ns));
  }
  delete_dependents(client, dependents);
  try {
    delete_foreground(client, kube::config_maps(), ns, match.name + "-" + kind.type);
  } catch (const ApiError& e) {
    if (!e.is_not_found()) throw;
  }
  return terminating ? Deleted::Terminating : Deleted::Gone;
}

}  // namespace trainctl::jobs
