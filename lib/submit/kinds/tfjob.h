// The options only `trainctl submit tf` has (Arena's tfjob flags), its part of SubmitOptions
// (kind_part.h): the replica types besides the workers, and each type's own port, resources
// and node selector ("" / 0 / empty: the common flag's value).
#pragma once

#include <string>
#include <vector>

namespace trainctl::submit {

struct TFReplicaOptions {
  int port = 0;  // 0: the operator's default (tfjob-port 2222)
  std::string cpu;
  std::string memory;
  std::vector<std::string> selectors;  // k=v, instead of --selector
};

struct TFOptions {
  int ps = 0;            // parameter servers
  std::string ps_image;  // "": --image
  int ps_gpus = 0;       // --gpus is the workers', the chief's and the evaluator's
  bool chief = false;
  bool evaluator = false;
  std::string success_policy = "ChiefWorker";  // ChiefWorker (the operator's "") | AllWorkers
  TFReplicaOptions ps_replica, worker, chief_replica, evaluator_replica;
};

}  // namespace trainctl::submit
