// What trainctl creates beside a job (TensorBoard Deployment and Service, the operator-free
// headless Service, --config-file ConfigMaps), found by the labels it puts on them. They carry
// an ownerReference to the job, so the garbage collector removes them with it; `delete` also
// removes them itself, so that a job deleted on any cluster leaves nothing, even where that
// ownerReference was lost (an operator that released the object, or an older trainctl that
// made it a controller reference, which the training-operator releases).
#pragma once

#include <string>
#include <vector>

#include "jobs/kind.h"
#include "kube/client.h"

namespace trainctl::jobs {

struct Dependent {
  const kube::Resource* resource;  // Service, Deployment, ConfigMap
  std::string namespace_;
  std::string name;
};

// The dependents of the job NAME of `kind` whose uid is `job_uid`: objects labelled
// release=NAME, app=TYPE and app.kubernetes.io/managed-by=trainctl that either have an
// ownerReference to that uid or have no owner at all (released). One round of parallel lists.
std::vector<Dependent> find_dependents(kube::Client& client, const JobKind& kind, const std::string& ns,
                                       const std::string& name, const std::string& job_uid);

// Deletes them (propagationPolicy Background: a Deployment's pods go with it). An object
// already gone is skipped; any other failure is thrown.
void delete_dependents(kube::Client& client, const std::vector<Dependent>& dependents);

}  // namespace trainctl::jobs
