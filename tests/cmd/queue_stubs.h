// The queue reads of `get NAME` for a PENDING or QUEUING job in namespace default: a cluster
// without Kueue and Volcano answers both lists 404. They go out in the round that explains the
// pending job, which lists the PodGroups anyway (get_stubs.h stub_pending): only the
// Workloads are the queue's own.
#pragma once

#include "cmd_harness.h"

namespace queue_stubs {

inline const std::string kWorkloads = "/apis/kueue.x-k8s.io/v1beta1/namespaces/default/workloads?limit=100";
inline const std::string kPodGroups = "/apis/scheduling.volcano.sh/v1beta1/namespaces/default/podgroups?limit=100";

inline void stub_no_queues(trainctl::testing::FakeClient& c) { c.on_not_found(kWorkloads); }

// Both lists, as the queue reads them on its own when the round of the explanation failed.
inline void stub_no_queues_alone(trainctl::testing::FakeClient& c) {
  c.on_not_found(kWorkloads);
  c.on_not_found(kPodGroups);
}

}  // namespace queue_stubs
