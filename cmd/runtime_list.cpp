// trainctl runtime list (see runtime_list.h). Columns, from the runtime objects
// (kubeflow/trainer@v2.3.0 pkg/apis/trainer/v1alpha1/trainingruntime_types.go):
// FRAMEWORK the label trainer.kubeflow.org/framework; NODES spec.mlPolicy.numNodes (CRD default
// 1); IMAGE container "node" of the replicated job labelled trainjob-ancestor-step=trainer;
// DEPRECATED the label trainer.kubeflow.org/support=deprecated, which makes the Trainer's
// webhook warn on a TrainJob's create (pkg/runtime/core/clustertrainingruntime.go L110-116).
// The TrainingRuntimes of one job (submit's --sync-mode copies, TrainingRuntime::of_one_job)
// are no runtime to pick: left out unless --all, which shows what each copies and its job.
#include "cmd/runtime_list.h"

#include <CLI/CLI.hpp>

#include "core/errors.h"
#include "print/print_as.h"
#include "print/table.h"
#include "submit/trainer_runtimes.h"

namespace trainctl {

namespace {

const char* kExamples =
    "  # The runtimes submit trainjob --runtime can name\n"
    "  trainctl runtime list\n"
    "  # With the namespace and the replicated jobs that run container \"node\"\n"
    "  trainctl runtime list -o wide\n"
    "  # Also the TrainingRuntimes of one job (submit --sync-mode's NAME-code-sync), with their job\n"
    "  trainctl runtime list --all\n"
    "  # The names of the torch runtimes, for scripts\n"
    "  trainctl runtime list -o json | jq -r '.items[] | select(.framework == \"torch\") | .name'\n";

nlohmann::ordered_json runtime_json(const submit::TrainingRuntime& r) {
  nlohmann::ordered_json j;
  j["name"] = r.name;
  j["kind"] = r.kind;
  if (!r.namespace_.empty()) j["namespace"] = r.namespace_;
  j["framework"] = r.framework;
  j["numNodes"] = r.num_nodes;
  j["image"] = r.image;
  j["deprecated"] = r.deprecated;
  j["nodeJobs"] = r.node_jobs;
  if (!r.copy_of.empty()) j["copyOf"] = r.copy_of;
  if (!r.owner_job.empty()) j["job"] = r.owner_job;
  return j;
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ",") + i;
  return out;
}

}  // namespace

void run_runtime_list(const RuntimeListOptions& o, Factory& f) {
  const auto format = print::parse_output(o.output, RuntimeListOptions::kFormats);
  const std::string ns = f.namespace_();
  const auto runtimes = submit::list_runtimes(f.client(), ns, o.all);
  const bool wide = format == print::OutputFormat::Wide;
  print::print_as(
      format,
      {.human =
           [&](std::ostream& out) {
             if (runtimes.empty()) {
               f.io().err() << "No ClusterTrainingRuntime, and no TrainingRuntime in namespace " << ns << "\n";
               return;
             }
             std::vector<std::string> headers = {"NAME", "KIND", "FRAMEWORK", "NODES", "IMAGE", "DEPRECATED"};
             if (wide) headers.insert(headers.end(), {"NAMESPACE", "NODE-JOBS"});
             if (o.all) headers.insert(headers.end(), {"COPY-OF", "JOB"});
             print::Table t(headers);
             for (const auto& r : runtimes) {
               std::vector<std::string> row = {r.name, r.kind, r.framework.empty() ? "-" : r.framework,
                                               std::to_string(r.num_nodes), r.image.empty() ? "-" : r.image,
                                               r.deprecated ? "yes" : "no"};
               if (wide) row.insert(row.end(), {r.namespace_.empty() ? "-" : r.namespace_, join(r.node_jobs)});
               if (o.all)
                 row.insert(row.end(), {r.copy_of.empty() ? "-" : r.copy_of, r.owner_job.empty() ? "-" : r.owner_job});
               t.add_row(std::move(row));
             }
             t.render_to(out, f.io());
           },
       .document =
           [&] {
             nlohmann::ordered_json items = nlohmann::ordered_json::array();
             for (const auto& r : runtimes) items.push_back(runtime_json(r));
             return nlohmann::ordered_json{{"items", items}};
           }},
      f.io().out());
}

void setup_runtime_list(CLI::App& runtime, Factory& f, RunFn<RuntimeListOptions> run) {
  auto opts = std::make_shared<RuntimeListOptions>();
  auto* cmd = runtime.add_subcommand(
      "list", "List the ClusterTrainingRuntimes and the namespace's TrainingRuntimes (Kubeflow Trainer v2)");
  cmd->alias("ls");
  add_output_option(cmd, opts->output, RuntimeListOptions::kFormats);
  cmd->add_flag("--all", opts->all,
                "Also the TrainingRuntimes of one job (the copy submit --sync-mode makes for a TrainJob, "
                "deleted with it): what each copies and its job");
  set_examples(cmd, kExamples);
  bind_run(cmd, f, [opts, &f, run = std::move(run)] { run(*opts, f); });
}

}  // namespace trainctl
