// The pieces of manifests every job kind shares (manifests.cpp): the job's values (name,
// labels, annotations, run policy, gang), the rendered pod templates, one object from one
// template. The kinds' builders (lib/submit/kinds/) compose their jobs from them.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "render/templates.h"
#include "submit/plan.h"
#include "submit/pod_values.h"

namespace trainctl::submit {

// The values every job template receives: name, namespace, labels, annotations, run policy
// (clean_pod_policy, backoff_limit, deadlines), workers and scheduling_policy.
nlohmann::json job_values(const Plan& plan);

// The pod template (common/pod.yaml, or the kind's own pod.yaml) of one replica type.
nlohmann::json pod_template(const Plan& plan, const render::TemplateSet& templates, const PodRole& role);

// Renders template NAME of the plan's template directory; throws Error unless it renders
// exactly one object.
nlohmann::json one_object(const render::TemplateSet& templates, const std::string& kind,
                          const std::string& name, const nlohmann::json& values);

// User labels first, trainctl's last (they win: list and get select on them).
std::vector<KeyValue> object_labels(const Plan& plan, std::vector<KeyValue> standard);

}  // namespace trainctl::submit
