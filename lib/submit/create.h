// Sending a submit to the cluster, all or nothing: the job first (POST with
// ?fieldValidation=Strict), then each dependent with an ownerReference to the job's uid. A
// dependent the job's admission reads (SubmitKind::created_before_job: a TrainJob's own
// TrainingRuntime) is created before the job and given that ownerReference once the job
// exists. If any step fails, everything created so far is deleted before the error is thrown.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kube/client.h"
#include "submit/submit_kind.h"

namespace trainctl::submit {

// Creates manifests[0] (the job of `kind`) and then the others, owned by it. Returns the
// objects as the server answered them. Errors (each after the rollback):
//  - 409 on the job: Error "job NAME already exists in namespace NS"; nothing else sent.
//  - 404 on the job's collection: Error "<Kind (group/version)> is not installed on this
//    cluster: <the kind's not_installed_hint>" (or NotFoundError when the namespace is missing).
//  - a job labelled kueue.x-k8s.io/queue-name that the answer shows not suspended (Kueue is
//    missing, or does not enable the kind's integration): the job is deleted and an Error
//    says why and what works instead (kueue_check.h); nothing else is sent.
//  - anything else: the server's or transport's error, prefixed with what failed and
//    followed by what was rolled back.
std::vector<nlohmann::json> create_all(kube::Client& client, const SubmitKind& kind,
                                       const std::string& namespace_, std::vector<nlohmann::json> manifests);

}  // namespace trainctl::submit
