// Kueue's visibility API, served when Kueue's CRDs are (see kueue_visibility.cpp).
#pragma once

#include <httplib.h>

#include "kubesim/store.h"

namespace kubesim {

// Answers /apis/visibility.kueue.x-k8s.io[/VERSION[/...]]; false when the path is not
// one, or Kueue is not served (then it is a 404 as any unknown group).
bool handle_kueue_visibility(const Store& store, const httplib::Request& req, httplib::Response& res);

// The group's APIGroup entry for /apis (v1beta2 preferred, then v1beta1).
json kueue_visibility_group();

}  // namespace kubesim
