// What submit pytorch's command line has besides the shared flags, kept by the three kinds it
// makes (kinds/pytorchjob.cpp, pytorch_none.cpp, trainjob.cpp with --api trainer) as parts of
// SubmitOptions and the Plan (kind_part.h): torchrun's settings and the elastic PyTorchJob's.
// Flags bound to them are registered by the commands that take them; the other submit
// commands refuse them by name (SubmitKind::flags).
#pragma once

#include <optional>
#include <string>

#include "submit/flag_set.h"
#include "submit/options.h"
#include "submit/plan.h"
#include "submit/submit_kind.h"

namespace trainctl::submit {

struct TorchrunOptions {
  // trainer (a TrainJob on torch-distributed), training-operator (a PyTorchJob) or none (an
  // Indexed Job, as --operator none); "": what the cluster serves (api_choice.h).
  std::string api;
  std::string operator_;  // "" (training-operator) | none
  std::string nproc_per_node;
  int master_port = 23456;  // --operator none
};

struct TorchrunPlan {
  std::string nproc_per_node;
  bool nproc_per_node_env = false;  // the CRD lacks spec.nprocPerNode: PET_NPROC_PER_NODE instead
  int master_port = 23456;
};

// Elastic PyTorchJob (spec.elasticPolicy): --min-workers or --max-workers makes it elastic.
struct ElasticOptions {
  std::optional<int> min_workers;
  std::optional<int> max_workers;
  std::optional<int> max_restarts;
  std::string rdzv_backend;      // "" = c10d
  std::optional<int> rdzv_port;  // unset = the operator's port, 23456
};

// Worker replicas only (no Master), between min_workers and max_workers.
struct ElasticPlan {
  int min_workers = 0;
  int max_workers = 0;  // > 0: an elastic job
  bool elastic() const { return max_workers > 0; }
  std::optional<int> max_restarts;  // PET_MAX_RESTARTS; unset: torchrun's default (0)
  std::string rdzv_backend;         // c10d
  int rdzv_port = 23456;            // PyTorchJobDefaultPort
};

// --nproc-per-node, then --worker-image (shared, SubmitKind::Rules::worker_image), --api,
// --operator and --master-port: submit pytorch's, in its --help order.
void add_torchrun_flags(FlagSet& f, SubmitOptions& options, const SubmitKind::Rules& rules);
// --min-workers, --max-workers, --max-restarts, --rdzv-backend, --rdzv-port.
void add_elastic_flags(FlagSet& f, SubmitOptions& options);

// Checks --nproc-per-node and --master-port into the plan's TorchrunPlan.
void plan_torchrun(const SubmitOptions& options, Plan& plan);
// The elastic flags into the plan's ElasticPlan (after plan_pod: the command must run
// torchrun); kinds/pytorch_elastic.cpp.
void plan_elastic(const SubmitOptions& options, Plan& plan);
// The first elastic flag given, or "".
std::string first_elastic_flag(const SubmitOptions& options);
// For the kinds submit pytorch makes that are not elastic: refuses an elastic flag, saying
// `why` after "--min-workers needs the training-operator (an elastic PyTorchJob): ".
void refuse_elastic(const SubmitOptions& options, const std::string& why);

}  // namespace trainctl::submit
