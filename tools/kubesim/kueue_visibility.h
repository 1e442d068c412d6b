// Kueue's visibility API, served when Kueue's CRDs are (see kueue_visibility.cpp).
#pragma once

#include <httplib.h>

#include "kubesim/kueue_config.h"
#include "kubesim/store.h"

namespace kubesim {

// Answers /apis/visibility.kueue.x-k8s.io[/VERSION[/...]] for the versions `config` serves;
// false when the path is not one, or Kueue is not served, or the version is not registered
// (then it is a 404 as any unknown group or version).
bool handle_kueue_visibility(const Store& store, const KueueConfig& config, const httplib::Request& req,
                             httplib::Response& res);

// The group's APIGroup entry for /apis: the served versions, preferred first
// (KueueConfig::visibility_order). `config` serves at least one.
json kueue_visibility_group(const KueueConfig& config);

}  // namespace kubesim
