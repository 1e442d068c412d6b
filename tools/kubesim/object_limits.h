// The sizes kube-apiserver refuses, besides the 3 MiB request body (request_body.h):
//   - annotations whose keys and values total more than 256 KiB, on every object: 422,
//     `metadata.annotations: Too long: may not be more than 262144 bytes` (apimachinery
//     v0.33.0 pkg/api/validation/objectmeta.go ValidateAnnotations, TotalAnnotationSizeLimitB);
//   - a ConfigMap whose data and binaryData total more than 1 MiB: 422 on the field "[]" (the
//     whole object), a Secret whose data does: 422 on "data" (kubernetes
//     pkg/apis/core/validation/validation.go ValidateConfigMap, ValidateSecret, MaxSecretSize);
//   - an object etcd will not store: etcd refuses a request over --max-request-bytes, 1.5 MiB
//     by default (etcd server/embed/config.go DefaultMaxRequestBytes; v3_server.go
//     processInternalRaftRequestOnce: ErrRequestTooLarge, "etcdserver: request is too
//     large"), which kube-apiserver passes on as a 500 whose Status has no reason
//     (apiserver handlers/responsewriters/status.go ErrorToAPIStatus). kubesim counts the
//     object's JSON; kube-apiserver stores built-in kinds as protobuf, a little smaller.
#pragma once

#include "kubesim/store.h"

#include <cstddef>

namespace kubesim {

inline constexpr size_t kTotalAnnotationSizeLimit = 256 * 1024;
inline constexpr size_t kMaxSecretSize = 1024 * 1024;
inline constexpr size_t kEtcdMaxRequestBytes = 1536 * 1024;

// Appends the 422 causes of the size rules above to `causes`.
void object_size_causes(const ResourceType& rt, const json& obj, json& causes);

// Throws the 500 "etcdserver: request is too large" when the stored object would not fit.
void check_storage_size(const ResourceType& rt, const json& obj);

}  // namespace kubesim
