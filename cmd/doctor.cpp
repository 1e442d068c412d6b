// trainctl doctor (see doctor.h): flags, then lib/doctor's report, printed.
#include "cmd/doctor.h"

#include <CLI/CLI.hpp>

#include "doctor/doctor.h"
#include "doctor/report_view.h"
#include "print/print_as.h"
#include "render/templates.h"

namespace trainctl {

namespace {

const char* kDoctorExamples =
    "  # What works here and what does not, each with the reason and the fix\n"
    "  trainctl doctor\n"
    "  # Whether team-a can run MPIJobs (exit 0) or not (exit 9)\n"
    "  trainctl doctor -n team-a -T mpi\n"
    "  # The findings that are not ok, for scripts\n"
    "  trainctl doctor -o json | jq -r '.findings[] | select(.status != \"ok\") | \"\\(.id): \\(.result)\"'\n";

// The templates submit would render: $TRAINCTL_TEMPLATE_DIR, else the config file's.
std::string doctor_template_dir(Factory& f) {
  const std::string dir = render::resolve_template_dir("");
  if (!dir.empty() || f.user_config().template_dir.empty()) return dir;
  return render::resolve_template_dir(f.user_config().template_dir);
}

}  // namespace

void run_doctor(const DoctorOptions& o, Factory& f) {
  const auto format = print::parse_output(o.output, DoctorOptions::kFormats);
  doctor::DoctorOptions d;
  if (!o.type.empty()) d.default_kind = &jobs::kind_for_type(o.type);
  d.namespace_ = f.namespace_();
  d.server = f.rest_config().server;
  d.context = f.rest_config().context_name;
  const render::TemplateSet templates(doctor_template_dir(f));
  d.templates = &templates;
  d.prometheus = f.prometheus_settings();
  const doctor::Report report = doctor::run_doctor(f.client(), d);
  print::print_as(format,
                  {.human = [&](std::ostream& out) { doctor::write_report(out, report, f.io()); },
                   .document = [&] { return report.to_json(); }},
                  f.io().out());
  if (!report.ready)
    throw Error("namespace " + report.namespace_ + " cannot run " + report.default_kind + "s: " +
                    report.not_ready_because.front(),
                ExitCode::NotReady);
}

void setup_doctor(CLI::App& root, Factory& f, RunFn<DoctorOptions> run) {
  auto o = std::make_shared<DoctorOptions>();
  auto* cmd = root.add_subcommand("doctor", "Check what this cluster can run for you, and what is missing");
  add_type_option(cmd, o->type, "The kind whose readiness decides the exit code (default pytorchjob)");
  add_output_option(cmd, o->output, DoctorOptions::kFormats);
  set_examples(cmd, kDoctorExamples);
  bind_run(cmd, f, [o, &f, run = std::move(run)] { run(*o, f); });
}

}  // namespace trainctl
