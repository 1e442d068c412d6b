// trainctl top job: GPUs requested and allocated per job, with the totals of running jobs;
// with a job name, Arena's per-job view of its instances with the duty cycle and memory of
// each GPU from Prometheus (cmd/gpu_metrics.h; N/A without it), whether it sat idle, and a
// sparkline of its utilisation over the idle window.
#include "cmd/top_job.h"

#include <CLI/CLI.hpp>

#include "cmd/gpu_metrics.h"
#include "cmd/idle_flags.h"
#include "cmd/live_view.h"
#include "cmd/run.h"
#include "core/errors.h"
#include "jobs/instance_select.h"
#include "jobs/job_list_live.h"
#include "jobs/job_query.h"
#include "jobs/kind.h"
#include "print/gpu_metric_text.h"
#include "print/gpu_sparkline.h"
#include "print/job_views.h"
#include "print/print_as.h"

namespace trainctl {

namespace {

// top job NAME [-i INSTANCE]: the job's instances with what is known of their GPUs.
void run_top_one_job(const TopJobOptions& o, Factory& f) {
  jobs::GetOptions q;
  q.ns = f.namespace_();
  q.name = o.name;
  q.kinds = o.kinds;
  auto got = jobs::get_job(f.client(), q, f.clock()());
  auto& job = got.job;
  jobs::keep_instance(job, got.replicas, o.instance);
  const auto& idle = *o.idle;
  const auto gpus = job_gpu_metrics(f, job, idle);
  const auto history = gpus ? job_gpu_history(f, job, idle) : std::nullopt;
  print::print_as(o.format,
                  {.human =
                       [&](std::ostream& out) {
                         const auto shown = gpus.value_or(std::vector<metrics::GpuMetric>{});
                         print::top_job_instances_table(job, shown, gpus.has_value()).render_to(out, f.io());
                         std::vector<const metrics::GpuMetric*> all;
                         for (const auto& g : shown) all.push_back(&g);
                         out << print::idle_footer(all, idle);
                         if (history) out << "\n" << print::job_gpu_history_text(*history, f.io());
                       },
                   .document =
                       [&] {
                         auto j = print::job_json_with_gpus(job, gpus);
                         print::add_gpu_history(j, history);
                         return j;
                       }},
                  f.io().out());
}

}  // namespace

void complete_top_job(TopJobOptions& o) {
  o.format = print::parse_output(o.output, TopJobOptions::kFormats);
  if (!o.name.empty()) {
    if (o.refresh > 0) throw UsageError("-r keeps the list of jobs current; drop the job name, or watch it with trainctl get");
  } else if (!o.instance.empty()) {
    throw UsageError("-i/--instance needs a job name: trainctl top job NAME -i INSTANCE");
  }
  o.kinds = jobs::kinds_for_type(o.type);
  if (!o.name.empty()) o.idle = idle_rule(o.idle_flags);
}

void run_top_job(const TopJobOptions& o, Factory& f) {
  using print::OutputFormat;
  if (!o.name.empty()) return run_top_one_job(o, f);
  const std::string ns = o.all_namespaces ? "" : f.namespace_();
  const bool structured = o.format == OutputFormat::Json || o.format == OutputFormat::Yaml;
  auto print_list = [&](const jobs::JobList& list, std::ostream& os) {
    print::print_as(o.format,
                    {.human =
                         [&](std::ostream& out) {
                           print::top_job_table(list, o.all_namespaces).render_to(out, f.io());
                           out << print::top_job_footer(list);
                         },
                     .stream = [&](std::ostream& out, OutputFormat fmt) { print::write_jobs(out, list, fmt); }},
                    os);
  };
  if (o.refresh > 0) {
    // -r: the jobs and their pods listed once, then watched.
    jobs::LiveJobs live(ns, o.kinds, structured, &f.client());
    kube::Reflectors reflectors(f.client(), live.collections());
    reflectors.start();
    // AGE moves on by itself: the view is rendered every interval, printed when it changed.
    run_live(f, reflectors, std::chrono::seconds(o.refresh), true,
             [&](std::ostream& out) { print_list(live.snapshot(f.clock()()), out); });
    return;
  }
  print_list(jobs::list_jobs(f.client(), ns, o.kinds, f.clock()(), structured), f.io().out());
}

void setup_top_job(CLI::App& top, Factory& f, RunFn<TopJobOptions> run) {
  auto opts = std::make_shared<TopJobOptions>();
  auto* cmd = top.add_subcommand("job", "Show GPU requests and allocation per job");
  cmd->add_option("name", opts->name, "A job: show its instances, their nodes and GPUs");
  cmd->add_option(
      "-i,--instance", opts->instance,
      "With a job name: only this instance (its pod name or the start of it, its replica or rank)");
  add_job_list_flags(cmd, opts->all_namespaces, opts->type, opts->output, TopJobOptions::kFormats,
                     "Jobs of all namespaces");
  add_idle_flags(cmd, opts->idle_flags);
  add_refresh_option(cmd, opts->refresh);
  set_examples(cmd,
               "  # GPUs of the jobs in the current namespace\n"
               "  trainctl top job\n"
               "  # Across the cluster\n"
               "  trainctl top job -A\n"
               "  # Kept current every 2 seconds from a watch\n"
               "  trainctl top job -A -r\n"
               "  # The instances of one job: node, GPUs, their utilisation and memory (Prometheus)\n"
               "  trainctl top job pytorch-dist\n"
               "  # One instance of it\n"
               "  trainctl top job pytorch-dist -i pytorch-dist-worker-0\n"
               "  # Which of its GPUs stayed under 10 % for the last 30 minutes\n"
               "  trainctl top job pytorch-dist --idle-window 30m --idle-threshold 10\n");
  bind_run(cmd, f, [opts, &f, run = std::move(run)] {
    complete_top_job(*opts);
    run(*opts, f);
  });
}

}  // namespace trainctl
