// trainctl logs: the log of a job's chief instance (master, launcher, first task, completion
// index 0), or of -i INSTANCE; -f follows it until the instance ends.
#include "cmd/logs.h"

#include <CLI/CLI.hpp>
#include <cmath>

#include "cmd/failure_report.h"
#include "cmd/logs_all.h"
#include "cmd/run.h"
#include "core/duration.h"
#include "jobs/instance_select.h"
#include "jobs/job_query.h"
#include "jobs/kind.h"
#include "jobs/logs/pod_logs.h"
#include "jobs/time.h"
#include "print/escape.h"

namespace trainctl {

namespace {

// -i names the instance (jobs/instance_select.h); without it, the job's only instance or its chief.
const jobs::Instance& pick_instance(const jobs::GetResult& r, const std::string& wanted) {
  const auto& job = r.job;
  if (!wanted.empty()) return jobs::select_instance(job, r.replicas, wanted);
  if (job.instances.empty()) throw NotFoundError("job " + job.name + " has no instances yet");
  if (job.instances.size() == 1) return job.instances.front();
  for (const auto& i : job.instances)
    if (i.is_chief) return i;
  throw UsageError("job " + job.name + " has several instances and no chief; choose one with -i:",
                   jobs::instance_choices(job, r.replicas));
}

std::string pick_container(const jobs::Instance& i, const std::string& wanted) {
  if (!wanted.empty()) return wanted;
  const bool initializing = i.status.rfind("Init:", 0) == 0 || i.status == "PodInitializing";
  if (initializing) {
    for (const auto& c : i.init_containers)
      if (c == "init-code") return c;
  }
  // Several containers: the server wants one named; take the first, as kubectl does.
  return i.containers.size() > 1 ? i.containers.front() : "";
}

}  // namespace

void complete_logs(LogsOptions& o) {
  if (!o.since.empty() && !o.since_time.empty()) throw UsageError("use only one of --since and --since-time");
  jobs::LogOptions l;
  if (!o.since.empty()) {
    const auto d = parse_duration(o.since);
    if (d.count() <= 0) throw UsageError("--since must be a positive duration such as 5s, 2m or 3h");
    l.since_seconds = std::chrono::ceil<std::chrono::seconds>(d).count();
  }
  if (!o.since_time.empty()) {
    if (!jobs::parse_time(o.since_time))
      throw UsageError("invalid --since-time \"" + o.since_time +
                       "\": use RFC 3339, e.g. 2024-05-01T10:00:00Z");
    l.since_time = o.since_time;
  }
  if (o.tail >= 0) l.tail = o.tail;
  l.timestamps = o.timestamps;
  o.window = l;
  o.kinds = jobs::kinds_for_type(o.type);
  if (o.follow || wants_all_logs(o))
    o.reconnect = std::chrono::duration_cast<std::chrono::milliseconds>(parse_duration(o.reconnect_delay));
}

void run_logs(const LogsOptions& o, Factory& f) {
  jobs::GetOptions q;
  q.ns = f.namespace_();
  q.name = o.name;
  q.kinds = o.kinds;
  const auto r = jobs::get_job(f.client(), q, f.clock()());
  if (wants_all_logs(o)) return run_logs_all(o, f, o.window, r.job);
  const auto& instance = pick_instance(r, o.instance);
  jobs::LogOptions l = o.window;
  l.ns = q.ns;
  l.pod = instance.name;
  l.container = pick_container(instance, o.container);

  if (!o.follow) {
    jobs::read_logs(f.client(), l, f.io().out());
    return;
  }
  jobs::FollowSettings s;
  s.reconnect_delay = o.reconnect;
  const std::string phase = jobs::follow_logs(f.client(), l, f.io().out(), s);
  if (phase == "Failed") report_failure(f, *r.job.kind, q.ns, r.job.name, f.io().err());
  if (phase == "Failed") throw Error("instance " + l.pod + " failed", ExitCode::JobFailed);
  if (phase.empty()) f.io().err() << "instance " << print::sanitize(l.pod) << " was deleted\n";
}

void setup_logs(CLI::App& root, Factory& f, RunFn<LogsOptions> run) {
  auto opts = std::make_shared<LogsOptions>();
  auto* cmd = root.add_subcommand("logs", "Print the logs of a training job");
  cmd->alias("log");
  cmd->add_option("name", opts->name, "Job name")->required();
  cmd->add_option(
      "-i,--instance", opts->instance,
      "Instance: its pod name or the start of it, its replica (worker-1) or its rank (1); default: the "
      "chief instance");
  cmd->add_option("-c,--container", opts->container,
                  "Container; default: the main one (init-code while initializing)");
  cmd->add_flag("-f,--follow", opts->follow, "Follow the log until the instance ends; exit 5 when it failed");
  cmd->add_option("-t,--tail", opts->tail, "Only the last N lines (-1: all)");
  cmd->add_option("--since", opts->since, "Only lines newer than a relative duration, e.g. 5s, 2m, 3h");
  cmd->add_option("--since-time", opts->since_time, "Only lines after an RFC 3339 time");
  cmd->add_flag("--timestamps", opts->timestamps, "Prefix each line with its RFC 3339 timestamp");
  add_type_option(cmd, opts->type, "Job type when two kinds share the name");
  add_logs_all_flags(cmd, *opts);
  cmd->add_option("--reconnect-delay", opts->reconnect_delay, "Pause before reconnecting a cut -f stream")
      ->group("");
  set_examples(cmd,
               "  # The chief instance (rank 0)\n"
               "  trainctl logs pytorch-dist\n"
               "  # The last 5 lines of one worker\n"
               "  trainctl logs pytorch-dist -i pytorch-dist-worker-0 -t 5\n"
               "  # The same worker by its replica, as logs --all prefixes its lines\n"
               "  trainctl logs pytorch-dist -i worker-0 -t 5\n"
               "  # A pod of an operator-free job (mnist-1-x7k2p) by the start of its name\n"
               "  trainctl logs mnist -i mnist-1\n"
               "  # Follow until the job ends; the exit status says whether it failed\n"
               "  trainctl logs -f pytorch-dist\n"
               "  # The last 10 minutes, with timestamps\n"
               "  trainctl logs pytorch-dist --since 10m --timestamps\n"
               "  # Every replica's log at once, each line prefixed with its replica, until the job ends\n"
               "  trainctl logs -f pytorch-dist --all\n"
               "  # The workers only, the last 20 lines of each\n"
               "  trainctl logs pytorch-dist --all --role worker -t 20\n"
               "  # Worker 1 without the prefix\n"
               "  trainctl logs pytorch-dist --role worker --rank 1 --prefix=false\n");
  bind_run(cmd, f, [opts, &f, run = std::move(run)] {
    complete_logs(*opts);
    run(*opts, f);
  });
}

}  // namespace trainctl
