#include "cmd/logs_all.h"

#include <CLI/CLI.hpp>

#include "jobs/logs/all_logs.h"

namespace trainctl {

void add_logs_all_flags(CLI::App* cmd, LogsOptions& o) {
  cmd->add_flag("-a,--all", o.all,
                "Every instance's log, each line prefixed with its replica (worker-1); with -f all at once "
                "until the job ends, exit 5 when it failed");
  cmd->add_option("--role", o.role,
                  "With --all: only replicas of this role (master, worker, ps, chief, evaluator, launcher, "
                  "or a Volcano task)");
  cmd->add_option("--rank", o.rank, "With --all: only replicas of this index (worker-1 has rank 1)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--prefix", o.prefix,
                "With --all: prefix each line with its replica; --prefix=false: no prefix");
}

bool wants_all_logs(const LogsOptions& o) { return o.all || !o.role.empty() || o.rank >= 0; }

void run_logs_all(const LogsOptions& o, Factory& f, const jobs::LogOptions& l, const jobs::TrainingJob& job) {
  if (!o.instance.empty()) throw UsageError("use either --instance or --all (--role, --rank)");
  jobs::AllLogsOptions a;
  a.log = l;
  a.log.ns = job.namespace_;
  a.log.container = o.container;
  a.kind = job.kind;
  a.job = job.name;
  a.filter.role = o.role;
  if (o.rank >= 0) a.filter.rank = o.rank;
  a.prefix = o.prefix;
  a.color = f.io().color();
  a.reconnect_delay = o.reconnect;
  if (!o.follow) return jobs::read_all_logs(f.client(), a, f.io().out());
  const auto r = jobs::follow_all_logs(f.client(), a, f.io().out());
  if (!r.status) {
    f.io().err() << "job " << job.name << " was deleted\n";
    return;
  }
  if (*r.status == jobs::JobStatus::Failed) throw Error("job " + job.name + " failed", ExitCode::JobFailed);
}

}  // namespace trainctl
