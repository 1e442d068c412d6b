// trainctl list: the training jobs of every kind in the namespace (or all namespaces),
// whoever submitted them, newest first; with --idle only the running ones holding GPUs that
// sat idle (metrics/idle.h).
#include "cmd/list.h"

#include <CLI/CLI.hpp>

#include "cmd/idle_flags.h"
#include "cmd/list_watch.h"
#include "cmd/run.h"
#include "core/errors.h"
#include "jobs/job_query.h"
#include "jobs/kind.h"
#include "jobs/diagnose/pending_query.h"
#include "metrics/idle_jobs.h"
#include "metrics/prometheus_response.h"
#include "print/job_views.h"
#include "print/print_as.h"

namespace trainctl {

namespace {

// list --idle: the running jobs that hold GPUs whose utilisation stayed under the threshold
// for the whole window, from one instant query of each GPU's highest utilisation.
void run_list_idle(const ListOptions& o, print::OutputFormat format, const jobs::JobList& all, Factory& f) {
  const metrics::IdleRule rule = idle_rule(o.idle_flags);
  const auto& lookup = f.metrics_source();
  if (!lookup.source) throw Error("list --idle needs GPU metrics: " + lookup.why);
  metrics::IdleJobs found;
  try {
    found = metrics::read_idle_jobs(*lookup.source, all, f.clock()(), rule);
  } catch (const metrics::PrometheusError& e) {
    throw Error(std::string("list --idle needs GPU metrics: ") + e.what());
  }
  const auto& idle_jobs = found.jobs;
  const auto& idle = found.idle;
  print::print_as(format,
                  {.human =
                       [&](std::ostream& out) {
                         print::idle_jobs_table(idle_jobs, idle, o.all_namespaces).render_to(out, f.io());
                       },
                   .stream = [&](std::ostream& out, print::OutputFormat fmt) { print::write_jobs(out, idle_jobs, fmt); },
                   .names = [&] { return print::job_names(idle_jobs); }},
                  f.io().out());
}

}  // namespace

void run_list(const ListOptions& o, Factory& f) {
  using print::OutputFormat;
  const auto format = print::parse_output(o.output, ListOptions::kFormats);
  const auto kinds = jobs::kinds_for_type(o.type);
  const std::string ns = o.all_namespaces ? "" : f.namespace_();
  if (o.watch) {
    if (o.idle) throw UsageError("--idle and -w cannot be combined");
    run_list_watch(o, format, f);
    return;
  }
  const auto now = f.clock()();
  if (o.idle) {
    run_list_idle(o, format, jobs::list_jobs(f.client(), ns, kinds, now, true), f);
    return;
  }
  // Only JSON and YAML show instances; without them memory follows jobs, not pods. The jobs
  // stay in their compact entries and are built one at a time as they are printed.
  const bool instances = format == OutputFormat::Json || format == OutputFormat::Yaml;
  auto listed = jobs::read_listed_jobs(f.client(), ns, kinds, now, instances);
  // -o wide: a REASON column, from what was read, and one list of events when a pending job's
  // pods do not say why.
  const bool wide = o.output == "wide";
  if (wide) jobs::add_event_reasons(f.client(), ns, listed);
  // Instance rows are kept only for JSON and YAML, which print each job once: they move out
  // rather than being copied. The table builds each job twice, from entries without any.
  const print::JobSource source{listed.size(), [&listed](size_t i) { return listed.take(i); },
                                listed.any_elastic(), listed.any_progress()};
  print::print_as(
      format,
      {.human =
           [&](std::ostream& out) {
             print::write_job_list_table(out, f.io(), source, o.all_namespaces, wide);
           },
       .stream = [&](std::ostream& out, OutputFormat fmt) { print::write_jobs(out, source, fmt); },
       .names = [&] { return print::job_names(source); }},
      f.io().out());
}

void setup_list(CLI::App& root, Factory& f, RunFn<ListOptions> run) {
  auto opts = std::make_shared<ListOptions>();
  auto* cmd = root.add_subcommand("list", "List training jobs");
  cmd->alias("ls");
  add_job_list_flags(cmd, opts->all_namespaces, opts->type, opts->output, ListOptions::kFormats,
                     "List jobs in all namespaces");
  cmd->add_flag("--idle", opts->idle,
                "Only running jobs holding GPUs that sat idle for the whole --idle-window (needs Prometheus)");
  add_idle_flags(cmd, opts->idle_flags);
  cmd->add_flag("-w,--watch", opts->watch,
                "After the list, print a row for every job that changes (from a watch), until Ctrl-C");
  set_examples(cmd,
               "  # Jobs in the current namespace, newest first\n"
               "  trainctl list\n"
               "  # PyTorch jobs in every namespace\n"
               "  trainctl list -A -T pytorch\n"
               "  # Jobs holding GPUs that stayed under 5 % for the last 30 minutes\n"
               "  trainctl list -A --idle --idle-window 30m\n"
               "  # The list, then a row whenever a job changes\n"
               "  trainctl list -w\n"
               "  # Names of running jobs, for scripts\n"
               "  trainctl list -o json | jq -r '.[] | select(.status==\"RUNNING\") | .name'\n");
  bind_run(cmd, f, [opts, &f, run = std::move(run)] { run(*opts, f); });
}

}  // namespace trainctl
