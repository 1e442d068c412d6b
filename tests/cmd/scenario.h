// The cluster of the command tests, modelled on the PyTorch walk-through (seed 000): a
// distributed PyTorch job that just started, an older finished one, an MPI job waiting for
// GPUs and a Volcano job. "Now" is 2024-05-01T10:00:00Z.
#pragma once

#include "jobs/job_fixtures.h"

namespace scenario {

using namespace fixtures;

// pytorch-dist: created 09:59:30, started 09:59:39 -> RUNNING for 21s; 3 pods x 1 GPU,
// master on node-1 (192.168.0.31).
inline json pytorch_dist() {
  json status = {{"startTime", "2024-05-01T09:59:39Z"},
                 {"conditions", json::array({condition("Created", "True", "2024-05-01T09:59:30Z"),
                                             condition("Running", "True", "2024-05-01T09:59:39Z")})}};
  return pytorchjob("pytorch-dist", "2024-05-01T09:59:30Z", 3, 1, status);
}
inline std::vector<json> pytorch_dist_pods() {
  return {pod("pytorch-dist-master-0", pytorch_labels("pytorch-dist", "master", 0), "Running", 1, "node-1",
              "default", "2024-05-01T09:59:31Z"),
          pod("pytorch-dist-worker-0", pytorch_labels("pytorch-dist", "worker", 0), "Running", 1, "node-2",
              "default", "2024-05-01T09:59:31Z"),
          pod("pytorch-dist-worker-1", pytorch_labels("pytorch-dist", "worker", 1), "Running", 1, "node-2",
              "default", "2024-05-01T09:59:31Z")};
}

// pytorch-git: created 09:14, ran 09:14:10 -> 09:20:00 (5m50s), SUCCEEDED, master on node-3.
inline json pytorch_git() {
  json status = {{"startTime", "2024-05-01T09:14:10Z"},
                 {"completionTime", "2024-05-01T09:20:00Z"},
                 {"conditions", json::array({condition("Created", "True", "2024-05-01T09:14:00Z"),
                                             condition("Running", "False", "2024-05-01T09:20:00Z"),
                                             condition("Succeeded", "True", "2024-05-01T09:20:00Z")})}};
  return pytorchjob("pytorch-git", "2024-05-01T09:14:00Z", 1, 1, status);
}
inline std::vector<json> pytorch_git_pods() {
  return {pod("pytorch-git-master-0", pytorch_labels("pytorch-git", "master", 0), "Succeeded", 1, "node-3",
              "default", "2024-05-01T09:14:01Z")};
}

// mpi-pending: created 09:55, only Created; launcher and 2 workers Pending (no GPUs free).
inline json mpi_pending() {
  json status = {
      {"conditions", json::array({condition("Created", "True", "2024-05-01T09:55:00Z", "MPIJobCreated")})}};
  return mpijob("mpi-pending", "2024-05-01T09:55:00Z", 2, 1, status);
}
inline std::vector<json> mpi_pending_pods() {
  return {pod("mpi-pending-launcher-x7r2n", mpi_labels("mpi-pending", "launcher"), "Pending", 0),
          pod("mpi-pending-worker-0", mpi_labels("mpi-pending", "worker"), "Pending", 1),
          pod("mpi-pending-worker-1", mpi_labels("mpi-pending", "worker"), "Pending", 1)};
}

// vj: Volcano job created 08:00, Running; pserver-0 (chief, no GPU) and 2 trainers on node-3.
inline json vj() { return volcanojob("vj", "2024-05-01T08:00:00Z", {{"phase", "Running"}}); }
inline std::vector<json> vj_pods() {
  return {pod("vj-pserver-0", volcano_labels("vj", "pserver", 0), "Running", 0, "node-3"),
          pod("vj-trainer-0", volcano_labels("vj", "trainer", 0), "Running", 1, "node-3"),
          pod("vj-trainer-1", volcano_labels("vj", "trainer", 1), "Running", 1, "node-3")};
}

template <typename... Vs>
json concat(const Vs&... vs) {
  json out = json::array();
  (..., [&](const std::vector<json>& v) {
    for (const auto& x : v) out.push_back(x);
  }(vs));
  return out;
}

}  // namespace scenario
