// trainctl wait: follows a job through watch streams (lib/submit/wait.h) until its status is
// RUNNING (--for=running) or it has finished, then says how it ended, by exit code and with
// -o json by one object; a failed job's root cause is printed (jobs/root_cause.h).
#include "cmd/wait.h"

#include <CLI/CLI.hpp>
#include <exception>

#include "cmd/failure_report.h"
#include "jobs/job_query.h"
#include "jobs/root_cause.h"
#include "jobs/status_rules.h"
#include "kube/answer_shape.h"
#include "print/escape.h"
#include "print/failure_view.h"
#include "submit/parse.h"
#include "submit/wait.h"

namespace trainctl {

namespace {

// The "result" of -o json for the error the wait ended with; "" for an error that is not an
// outcome of the job (server, transport), which is reported as it is.
std::string result_of(ExitCode code) {
  switch (code) {
    case ExitCode::JobFailed:
      return "failed";
    case ExitCode::Timeout:
      return "timeout";
    case ExitCode::Unschedulable:
      return "unschedulable";
    case ExitCode::JobDeleted:
      return "deleted";
    default:
      return "";
  }
}

}  // namespace

void run_wait(const WaitOptions& o, Factory& f) {
  const auto format = print::parse_output(o.output, WaitOptions::kFormats);
  if (o.for_ != "running" && o.for_ != "finished") throw UsageError("--for must be running or finished");
  submit::WaitOptions w;
  w.until_finished = true;
  w.until_job_running = o.for_ == "running";
  w.clock = f.clock();
  if (!o.timeout.empty()) w.timeout = std::chrono::seconds(submit::parse_seconds("--timeout", o.timeout));
  const bool json = format == print::OutputFormat::Json;
  IOStreams& io = f.io();
  if (!json) w.on_status = [&io](const std::string& line) { io.out() << line << '\n' << std::flush; };

  jobs::GetOptions q;
  q.ns = f.namespace_();
  q.name = o.name;
  q.kinds = jobs::kinds_for_type(o.type);
  const auto job = jobs::get_job(f.client(), q, f.clock()()).job;  // NotFoundError (3) at start
  const jobs::JobKind& kind = *job.kind;

  std::string result;
  std::exception_ptr error;
  ExitCode code = ExitCode::Ok;
  try {
    const auto s = submit::wait_for_job(f.client(), kind, q.ns, job.name, w);
    result = s == jobs::JobStatus::Succeeded ? "succeeded" : "running";
  } catch (const Error& e) {
    result = result_of(e.code());
    if (result.empty()) throw;
    code = e.code();
    error = std::current_exception();
  }
  const auto failure =
      code == ExitCode::JobFailed ? jobs::find_failure(f.client(), kind, q.ns, job.name) : std::nullopt;
  if (json) {
    nlohmann::ordered_json j;
    j["name"] = job.name;
    j["namespace"] = q.ns;
    j["kind"] = kind.resource.kind;
    j["status"] = nullptr;  // the job's status as list shows it; null once deleted
    if (code != ExitCode::JobDeleted) {
      try {
        j["status"] = jobs::status_name(
            jobs::object_status(kind, kube::get_object(f.client(), kind.resource, q.ns, job.name)));
      } catch (const ApiError& e) {
        if (!e.is_not_found()) throw;
      }
    }
    j["result"] = result;
    j["failure"] = failure ? nlohmann::ordered_json(print::failure_json(*failure)) : nlohmann::ordered_json();
    io.out() << j.dump(2) << '\n';
  } else if (failure) {
    io.err() << print::failure_text(*failure);
  } else if (!error) {
    io.out() << "The Job " << print::sanitize(job.name)
             << (result == "succeeded" ? " has succeeded" : " is running") << '\n';
  }
  if (error) std::rethrow_exception(error);
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
  bind_run(cmd, f, [opts, &f, run = std::move(run)] { run(*opts, f); });
}

}  // namespace trainctl
