// trainctl wait: follows a job through watch streams (lib/submit/wait.h) until its status is
// RUNNING (--for=running) or it has finished, then says how it ended, by exit code and with
// -o json by one object; a failed job's root cause is printed (jobs/root_cause.h).
#include "cmd/wait.h"

#include <CLI/CLI.hpp>

#include "jobs/find_jobs.h"
#include "jobs/job_query.h"
#include "jobs/diagnose/root_cause.h"
#include "print/escape.h"
#include "print/failure_view.h"
#include "print/print_as.h"
#include "print/wait_view.h"
#include "submit/parse.h"
#include "submit/wait.h"

namespace trainctl {

void complete_wait(WaitOptions& o) {
  o.format = print::parse_output(o.output, WaitOptions::kFormats);
  if (o.for_ != "running" && o.for_ != "finished") throw UsageError("--for must be running or finished");
  o.timeout_seconds.reset();
  if (!o.timeout.empty()) o.timeout_seconds = std::chrono::seconds(submit::parse_seconds("--timeout", o.timeout));
  o.kinds = jobs::kinds_for_type(o.type);
}

void run_wait(const WaitOptions& o, Factory& f) {
  submit::WaitOptions w;
  w.until_finished = true;
  w.until_job_running = o.for_ == "running";
  w.clock = f.clock();
  w.timeout = o.timeout_seconds;
  const bool json = o.format == print::OutputFormat::Json;
  IOStreams& io = f.io();
  if (!json) w.on_status = [&io](const std::string& line) { io.out() << line << '\n' << std::flush; };

  const std::string ns = f.namespace_();
  const auto job = jobs::find_job(f.client(), ns, o.name, o.kinds);  // NotFoundError (3) at start
  const jobs::JobKind& kind = job.kind();
  const auto outcome = submit::wait_outcome(f.client(), kind, ns, job.name, w);
  const print::WaitView view{
      .name = job.name,
      .namespace_ = ns,
      .kind = kind.resource.kind,
      .status = outcome.status,
      .result = outcome.result,
      .failure = outcome.result == "failed" ? jobs::find_failure(f.client(), kind, ns, job.name) : std::nullopt};
  print::print_as(o.format,
                  {.human =
                       [&](std::ostream& out) {
                         if (view.failure)
                           io.err() << print::failure_text(*view.failure);
                         else if (!outcome.error)
                           out << "The Job " << print::sanitize(job.name)
                               << (outcome.result == "succeeded" ? " has succeeded" : " is running") << '\n';
                       },
                   .document = [&] { return print::wait_json(view); }},
                  io.out());
  if (outcome.error) std::rethrow_exception(outcome.error);
}

void setup_wait(CLI::App& root, Factory& f, RunFn<WaitOptions> run) {
  auto opts = std::make_shared<WaitOptions>();
  auto* cmd = root.add_subcommand(
      "wait", "Wait until a training job runs or finishes; the exit code says how it ended");
  cmd->add_option("name", opts->name, "Job name")->required();
  cmd->add_option("--for", opts->for_,
                  "running: until the job is RUNNING (or has finished); finished: until it ends")
      ->check(CLI::IsMember({"running", "finished"}));
  cmd->add_option("--timeout", opts->timeout,
                  "Give up after this long (e.g. 90s, 10m): exit 6, or 7 when a pod cannot be scheduled");
  add_type_option(cmd, opts->type, "Job type, when two kinds have a job of this name");
  add_output_option(cmd, opts->output, WaitOptions::kFormats);
  set_examples(cmd,
               "  # Block until the job ends: exit 0 succeeded, 5 failed (with why), 8 deleted\n"
               "  trainctl wait pytorch-dist\n"
               "  # Until it runs, at most 5 minutes: exit 6 on timeout, 7 when it cannot be scheduled\n"
               "  trainctl wait pytorch-dist --for=running --timeout=5m\n"
               "  # For CI: one JSON object with the result and, when it failed, the root cause\n"
               "  trainctl wait pytorch-dist --timeout=2h -o json | jq -r .result\n");
  bind_run(cmd, f, [opts, &f, run = std::move(run)] {
    complete_wait(*opts);
    run(*opts, f);
  });
}

}  // namespace trainctl
