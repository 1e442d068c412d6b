// --kueue-queue, checked on the create answer: a job labelled into a LocalQueue is held only
// if Kueue's mutating webhook suspended it. A cluster whose Kueue does not enable the kind's
// integration (Kueue v0.19.0 and later ship kubeflow.org/pytorchjob and tfjob disabled:
// config/components/manager/controller_manager_config.yaml, charts/kueue/values.yaml) answers
// with a job that is not suspended: its webhook is a no-op (jobframework/setup.go,
// pkg/util/webhook/noop_webhook.go) and it starts at once, past the queue's quota.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "kube/client.h"
#include "submit/submit_kind.h"

namespace trainctl::submit {

// The LocalQueue a job manifest is labelled into (kueue.x-k8s.io/queue-name); "" for none.
std::string kueue_queue_of(const nlohmann::json& job);

// Whether the created job is suspended where Kueue's webhook suspends the kind
// (KueueIntegration::suspend_field). A kind Kueue does not manage counts as suspended: there
// is nothing to check.
bool kueue_suspended(const SubmitKind& kind, const nlohmann::json& created);

// Whether the cluster serves kueue.x-k8s.io (its discovery document); true when that cannot
// be told (an error other than 404).
bool kueue_installed(kube::Client& client);

// The one line of the refusal: the cause (Kueue not installed, or the kind's integration not
// enabled), `removed` (what became of the created job) and what works instead.
std::string kueue_not_suspended_message(const SubmitKind& kind, const std::string& job_name,
                                        const std::string& queue, bool kueue_installed,
                                        const std::string& removed);

}  // namespace trainctl::submit
