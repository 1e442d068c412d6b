// What only `trainctl submit mpi` has: its part of SubmitOptions (its flags) and of the Plan
// (kind_part.h).
#pragma once

#include <string>

namespace trainctl::submit {

struct MPIOptions {
  bool gputopology = false;
  int slots_per_worker = 0;  // 0 = GPUs per worker, at least 1
  std::string launcher_cpu;  // the launcher requests nothing unless these are given
  std::string launcher_memory;
};

struct MPIPlan {
  // WaitForWorkersReady: mpi-operator (v0.5+) creates the launcher once every worker is Ready;
  // AtStartup for a gang that counts the launcher; "" when the installed MPIJob CRD has no such
  // field (the kind's apply_facts).
  std::string launcher_creation_policy = "WaitForWorkersReady";
  bool gputopology = false;  // the workers carry ACK's gpu-topology labels
  int slots_per_worker = 1;
  std::string launcher_cpu;
  std::string launcher_memory;
};

}  // namespace trainctl::submit
