#include "cmd/submit.h"

#include <CLI/CLI.hpp>
#include <memory>
#include <ostream>

#include "cmd/failure_report.h"
#include "core/errors.h"
#include "print/print_as.h"
#include "render/templates.h"
#include "submit/create.h"
#include "submit/manifests.h"
#include "submit/parse.h"
#include "submit/plan.h"
#include "submit/server_facts.h"
#include "submit/submit_kind.h"
#include "submit/wait.h"
#include "yaml/write.h"

namespace trainctl {

namespace {

// The namespace without requiring a usable kubeconfig: --dry-run works anywhere.
std::string namespace_for(Factory& f, bool dry_run) {
  if (!dry_run) return f.namespace_();
  try {
    return f.namespace_();
  } catch (const ConfigError&) {
    return "default";
  }
}

// --dry-run: JSON as one List, YAML as one document per object (kubectl apply -f reads both),
// through print_as as every -o.
void print_manifests(const std::vector<nlohmann::json>& objects, const std::string& output, std::ostream& out) {
  using print::OutputFormat;
  print::print_as(print::parse_output(output, {OutputFormat::Yaml, OutputFormat::Json}),
                  {.stream =
                       [&](std::ostream& os, OutputFormat format) {
                         if (format == OutputFormat::Json)
                           os << print::to_json(nlohmann::json{{"apiVersion", "v1"}, {"kind", "List"}, {"items", objects}});
                         else
                           os << yaml::to_yaml_stream(objects);
                       }},
                  out);
}

void wait(const submit::SubmitOptions& o, const submit::Plan& plan, Factory& f) {
  IOStreams& io = f.io();
  submit::WaitOptions w;
  w.until_finished = o.wait == "finished";
  w.expected_pods = plan.expected_pods;
  w.clock = f.clock();
  if (!o.timeout.empty()) w.timeout = std::chrono::seconds(submit::parse_seconds("--timeout", o.timeout));
  bool live = false;
  w.on_status = [&](const std::string& line) {
    if (io.is_tty()) {
      io.out() << "\r\033[K" << line << std::flush;
      live = true;
    } else {
      io.out() << line << '\n' << std::flush;
    }
  };
  auto end_live = [&] {
    if (live) io.out() << '\n';
  };
  try {
    const jobs::JobStatus status =
        submit::wait_for_job(f.client(), *plan.kind, plan.namespace_, plan.name, w);
    end_live();
    io.out() << "The Job " << plan.name
             << (status == jobs::JobStatus::Succeeded ? " has succeeded" : " is running") << '\n';
  } catch (const Error& e) {
    end_live();
    if (e.code() == ExitCode::JobFailed) report_failure(f, *plan.kind, plan.namespace_, plan.name, io.err());
    throw;
  } catch (...) {
    end_live();
    throw;
  }
}

// The options as the command's kind adapts them to what the cluster serves (submit pytorch
// where only Kubeflow Trainer v2 is: SubmitKind::adapt_to_cluster), said in one line on
// stderr. --dry-run asks nothing.
submit::SubmitOptions adapted(const submit::SubmitOptions& o, Factory& f) {
  submit::SubmitOptions out = o;
  if (o.dry_run) return out;
  const std::string note =
      submit::command_kind(o).adapt_to_cluster(out, [&f]() -> kube::Client& { return f.client(); });
  if (!note.empty()) f.io().err() << note << '\n';
  return out;
}

}  // namespace

void run_submit(const submit::SubmitOptions& given, Factory& f) {
  const submit::SubmitOptions o = adapted(given, f);
  const std::string ns = namespace_for(f, o.dry_run);
  submit::Plan plan = submit::make_plan(o, ns, submit::read_config_files(o.config_files, o.name));
  render::TemplateSet templates(render::resolve_template_dir(o.template_dir));
  if (!o.dry_run) {
    const auto facts = submit::read_server_facts(f.client(), plan);
    for (const auto& note : submit::apply_server_facts(facts, plan))
      f.io().err() << "warning: " << note << '\n';
    plan.submit_kind->check_cluster(f.client(), plan);
  }
  std::vector<nlohmann::json> manifests = submit::build_manifests(plan, templates);
  if (o.dry_run) {
    print_manifests(manifests, o.output, f.io().out());
    return;
  }
  submit::create_all(f.client(), *plan.submit_kind, ns, std::move(manifests));
  f.io().out() << "The Job " << plan.name << " has been submitted successfully\n"
               << "You can run `trainctl get " << plan.name << " --type " << plan.kind->type << " -n " << ns
               << "` to check the job status\n";
  if (!o.wait.empty()) wait(o, plan, f);
}

}  // namespace trainctl
