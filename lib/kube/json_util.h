// Null-safe reads of Kubernetes objects held as JSON live in lib/object (shared with kubesim);
// this header makes them available under trainctl::kube as before.
#pragma once

#include "object/conditions.h"
#include "object/fields.h"
#include "object/meta.h"

namespace trainctl::kube {

using object::annotation;
using object::at;
using object::at_path;
using object::condition;
using object::condition_true;
using object::label;
using object::labels_match;
using object::name_of;
using object::namespace_of;
using object::str;

}  // namespace trainctl::kube
