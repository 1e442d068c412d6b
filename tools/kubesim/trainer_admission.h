// What kube-apiserver does to Kubeflow Trainer v2.3.0's and JobSet v0.12.0's objects on their
// way in, besides the OpenAPI schema: the CRDs' structural defaults and x-kubernetes-validations
// (CEL) rules, and the admission webhooks a cluster with Trainer, JobSet and Kueue registers.
// Called by the REST layer (rest_list.cpp validate_object) for create, update and patch of the
// main resource (not of /status), in kube-apiserver's order: defaults and mutating webhooks,
// then schema and CEL validation, then validating webhooks.
//
// Mutating, in the order of their configurations' names (kube-apiserver sorts them):
//   defaulter.trainer.kubeflow.org  defaulter.trainjob.trainer.kubeflow.org (CREATE, UPDATE):
//     runtimePatches[].time (pkg/webhooks/trainjob_webhook.go Default)
//   kueue-mutating-webhook-configuration  mtrainjob.kb.io (CREATE; controllers/kueue_trainjob.h)
//   jobset's  mjobset.kb.io (CREATE; pkg/webhooks/jobset_webhook.go Default)
// Validating:
//   validator.trainjob.trainer.kubeflow.org (CREATE, UPDATE; trainjob_webhook.go): unsupported
//     runtime kind, missing runtime, the deprecated-runtime warning, the plugins' Validate
//   validator.(cluster)trainingruntime.trainer.kubeflow.org (runtimes labelled
//     trainer.kubeflow.org/webhook-validation=disabled skip it): replicas 1 and the ancestor's
//     container (trainingruntime_webhook.go); the deprecated ClusterTrainingRuntime warning
//   vjobset.kb.io (CREATE, UPDATE; controllers/jobset_webhook.h)
// A webhook's refusal is the Status ToStatusErr makes of it (k8s.io/apiserver
// pkg/admission/plugin/webhook/errors): controller-runtime's Denied (403 Forbidden) for the
// Trainer's, the webhook's own 422 Invalid for JobSet's, its message after `admission webhook
// "NAME" denied the request: `.
#pragma once

#include <string>
#include <vector>

#include "kubesim/store.h"

namespace kubesim {

// Structural defaults and mutating webhooks. old: the stored object of an update (nullptr on
// create); kueue_trainjob: Kueue's trainer.kubeflow.org/trainjob integration is enabled (its
// webhook suspends a queued TrainJob; a disabled integration's webhook does nothing).
void trainer_admission_mutate(const Store& store, const ResourceType& rt, json& obj, const json* old,
                              bool kueue_trainjob = true);

// The CRDs' CEL rules kubesim checks, as causes of a 422 Invalid (field, FieldValueInvalid,
// `Invalid value: "object": field is immutable`): a TrainJob's name (RFC 1035, 63 characters),
// its storageUri and managedBy values, the immutability of runtimeRef, initializer, trainer,
// activeDeadlineSeconds, managedBy and of runtimePatches' containers, volumes and the like,
// status.trainerStatus.lastUpdatedTime; a JobSet's immutable network, successPolicy,
// failurePolicy, startupPolicy and the startupPolicy/dependsOn exclusion.
void trainer_crd_rules(const ResourceType& rt, const json& obj, const json* old, json& causes);

// Validating webhooks: throws the refusal (StatusError), returns the warnings to send.
std::vector<std::string> trainer_admission_validate(const Store& store, const ResourceType& rt, const json& obj,
                                                    const json* old);

}  // namespace kubesim
