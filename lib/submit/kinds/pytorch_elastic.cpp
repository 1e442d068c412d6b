// The part of make_plan for an elastic PyTorchJob: --min-workers or --max-workers render
// spec.elasticPolicy, and the job runs Worker replicas only. What training-operator v1.9.0
// accepts and injects (docs/operators.md §1.11):
// - pkg/webhooks/pytorch/pytorchjob_webhook.go validateSpec: an elasticPolicy needs a Worker
//   replica spec. A Master stays allowed, but with a Master envvar.go setPodEnv also sets a fixed
//   WORLD_SIZE, RANK and MASTER_ADDR, while elastic.go points PET_RDZV_ENDPOINT at
//   NAME-worker-0 (no rdzvHost): the upstream elastic examples run Workers only, and so does
//   trainctl.
// - pkg/apis/kubeflow.org/v1/pytorch_defaults.go setElasticPolicy: a missing minReplicas or
//   maxReplicas takes the other's value; trainctl renders both.
// - pkg/controller.v1/pytorch/elastic.go: PET_RDZV_ENDPOINT NAME-worker-0:rdzvPort,
//   PET_RDZV_BACKEND (c10d when unset), PET_NNODES min:max, PET_MAX_RESTARTS when set. These
//   are torchrun's (torch.distributed.run) environment defaults: the command must run torchrun.
#include <regex>
#include <sstream>

#include "core/errors.h"
#include "submit/kind_part.h"
#include "submit/kinds/torchrun.h"
#include "submit/parse.h"

namespace trainctl::submit {

namespace {

// Whether the command starts torchrun: `torchrun ...` or `python -m torch.distributed.run ...`,
// after any VAR=VALUE assignments.
bool runs_torchrun(const std::string& command) {
  static const std::regex assignment("[A-Za-z_][A-Za-z0-9_]*=.*");
  static const std::regex python("(.*/)?python[0-9.]*");
  std::istringstream words(command);
  std::string w;
  while (words >> w && std::regex_match(w, assignment)) {
  }
  if (w == "torchrun" || w.ends_with("/torchrun")) return true;
  if (!std::regex_match(w, python)) return false;
  std::string m, module;
  if (!(words >> m)) return false;
  if (m == "-m") return static_cast<bool>(words >> module) && module == "torch.distributed.run";
  return m == "-mtorch.distributed.run";
}

}  // namespace

std::string first_elastic_flag(const SubmitOptions& options) {
  const ElasticOptions& o = kind_part<ElasticOptions>(options);
  if (o.min_workers) return "--min-workers";
  if (o.max_workers) return "--max-workers";
  if (o.max_restarts) return "--max-restarts";
  if (!o.rdzv_backend.empty()) return "--rdzv-backend";
  if (o.rdzv_port) return "--rdzv-port";
  return "";
}

void refuse_elastic(const SubmitOptions& options, const std::string& why) {
  if (const std::string flag = first_elastic_flag(options); !flag.empty())
    throw UsageError(flag + " needs the training-operator (an elastic PyTorchJob): " + why);
}

void add_elastic_flags(FlagSet& f, SubmitOptions& options) {
  ElasticOptions& o = set_kind_part<ElasticOptions>(options);
  f.option("--min-workers", o.min_workers, "Elastic job: fewest Worker pods it runs with (no Master)");
  f.option("--max-workers", o.max_workers, "Elastic job: most Worker pods it runs with");
  f.option("--max-restarts", o.max_restarts,
           "Elastic job: restarts of the worker group before it fails (PET_MAX_RESTARTS)");
  f.option("--rdzv-backend", o.rdzv_backend, "Elastic job: torchrun's rendezvous backend (default c10d)");
  f.option("--rdzv-port", o.rdzv_port, "Elastic job: rendezvous port on worker-0 (default 23456)");
}

void plan_elastic(const SubmitOptions& options, Plan& plan) {
  const std::string flag = first_elastic_flag(options);
  if (flag.empty()) return;
  const ElasticOptions& o = kind_part<ElasticOptions>(options);
  ElasticPlan& p = set_kind_part<ElasticPlan>(plan);
  if (!o.min_workers && !o.max_workers)
    throw UsageError(flag + " is for an elastic job: give --min-workers and --max-workers too");
  if (o.min_workers && *o.min_workers < 1) throw UsageError("--min-workers must be at least 1");
  if (o.max_workers && *o.max_workers < 1) throw UsageError("--max-workers must be at least 1");
  // pytorch_defaults.go setElasticPolicy: the missing bound is the given one.
  p.min_workers = o.min_workers.value_or(*o.max_workers);
  p.max_workers = o.max_workers.value_or(*o.min_workers);
  if (p.min_workers > p.max_workers)
    throw UsageError("--min-workers " + std::to_string(p.min_workers) + " is more than --max-workers " +
                     std::to_string(p.max_workers) + ": give --min-workers at most --max-workers");
  if (plan.workers < p.min_workers || plan.workers > p.max_workers)
    throw UsageError("--workers " + std::to_string(plan.workers) + " is outside --min-workers " +
                     std::to_string(p.min_workers) + " to --max-workers " + std::to_string(p.max_workers) +
                     ": give --workers, the Worker pods the elastic job starts with, between them");
  if (o.max_restarts && *o.max_restarts < 0) throw UsageError("--max-restarts must not be negative");
  p.max_restarts = o.max_restarts;
  p.rdzv_backend = o.rdzv_backend.empty() ? "c10d" : o.rdzv_backend;
  // pytorch_types.go RDZVBackend: c10d, etcd, etcd-v2. The etcd backends need an etcd server
  // as rdzvHost, which trainctl does not set: the endpoint would be NAME-worker-0.
  if (p.rdzv_backend == "etcd" || p.rdzv_backend == "etcd-v2")
    throw UsageError("--rdzv-backend " + p.rdzv_backend +
                     " needs an etcd server, but the rendezvous endpoint is the job's worker-0: use c10d");
  if (p.rdzv_backend != "c10d")
    throw UsageError("invalid --rdzv-backend " + dq(p.rdzv_backend) + ": use c10d");
  if (o.rdzv_port && (*o.rdzv_port < 1 || *o.rdzv_port > 65535))
    throw UsageError("--rdzv-port must be between 1 and 65535");
  p.rdzv_port = o.rdzv_port.value_or(23456);
  // No Master: every pod is a Worker, of one image.
  if (!plan.worker_image.empty())
    throw UsageError(
        "--image and --worker-image differ, but an elastic job runs Worker pods only: give one image");
  if (!plan.command.empty() && !runs_torchrun(plan.command))
    throw UsageError(
        "an elastic job's command must start torchrun, which reads the PET_* rendezvous settings "
        "the training-operator sets: e.g. \"torchrun train.py\" (or python -m torch.distributed.run)");
}

}  // namespace trainctl::submit
