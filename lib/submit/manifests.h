// The objects one submit creates, rendered from the templates: the job first, then its
// dependents (headless Service, TensorBoard Deployment + Service). No ownerReferences yet:
// those need the job's uid and are added after it is created (submit/create.h).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "render/templates.h"
#include "submit/plan.h"

namespace trainctl::submit {

std::vector<nlohmann::json> build_manifests(const Plan& plan, const render::TemplateSet& templates);

// The labels trainctl puts on everything it creates for a job (Arena's app/release/createdBy
// plus app.kubernetes.io/managed-by), for tests and selectors.
std::vector<KeyValue> standard_labels(const Plan& plan);
// standard_labels plus the kind's SubmitKind::Rules::pod_labels (--operator none:
// trainctl.io/operator=none, kind.h's selector).
std::vector<KeyValue> standard_labels_for_pods(const Plan& plan);
// Node directory that holds the logs when --logdir is not on a --data volume.
std::string tensorboard_host_path(const Plan& plan);

}  // namespace trainctl::submit
