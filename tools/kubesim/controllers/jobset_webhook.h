// JobSet v0.12.0's validating webhook vjobset.kb.io (kubernetes-sigs/jobset
// pkg/webhooks/jobset_webhook.go ValidateCreate, ValidateUpdate, validateFailurePolicy), for
// JobSets created through kubesim's API and for those the Trainer applies. A refusal is the
// Status kube-apiserver answers for a denying webhook: 422 Invalid, `admission webhook
// "vjobset.kb.io" denied the request: JobSet.jobset.x-k8s.io "NAME" is invalid: ...`, with the
// field errors as causes (k8s.io/apiserver pkg/admission/plugin/webhook/errors ToStatusErr).
#pragma once

#include <optional>

#include "kubesim/store.h"

namespace kubesim {

// js (with its defaults), the JobSet before an update (nullptr on create). nullopt: admitted.
std::optional<StatusError> jobset_webhook_validate(const json& js, const json* old);

}  // namespace kubesim
