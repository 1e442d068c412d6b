// POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews: what `kubectl auth can-i` asks.
// As kube-apiserver's registry (pkg/registry/authorization/selfsubjectaccessreview/rest.go):
// exactly one of spec.resourceAttributes and spec.nonResourceAttributes (else 422 Invalid,
// pkg/apis/authorization/validation ValidateSelfSubjectAccessReviewSpec), the attributes
// taken for the requesting user (pkg/registry/authorization/util ResourceAttributesFrom), the
// decision of the same authorizer that decides requests (rbac.h) in status.allowed and
// status.reason, answered 201 with the review; nothing is stored.
#pragma once

#include <httplib.h>

#include "kubesim/rbac.h"

namespace kubesim {

// Whether `path` is the collection of SelfSubjectAccessReviews.
bool is_self_subject_access_review(const std::string& path);
void serve_self_subject_access_review(const Store& store, const UserInfo& user, const httplib::Request& req,
                                      httplib::Response& res);

}  // namespace kubesim
