// The null-safe JSON reads of Kubernetes objects now live in kube/json_util.h; this header
// makes them available under trainctl::jobs as before.
#pragma once

#include "kube/json_util.h"

namespace trainctl::jobs {

using kube::annotation;
using kube::at;
using kube::at_path;
using kube::condition;
using kube::condition_true;
using kube::label;
using kube::labels_match;
using kube::name_of;
using kube::namespace_of;
using kube::str;

}  // namespace trainctl::jobs
