// The queue reads of `get NAME` for a PENDING or QUEUING job in namespace default: a cluster
// without Kueue and Volcano answers both lists 404.
#pragma once

#include "cmd_harness.h"

namespace queue_stubs {

inline void stub_no_queues(trainctl::testing::FakeClient& c) {
  c.on_not_found("/apis/kueue.x-k8s.io/v1beta1/namespaces/default/workloads?limit=500");
  c.on_not_found("/apis/scheduling.volcano.sh/v1beta1/namespaces/default/podgroups?limit=500");
}

}  // namespace queue_stubs
