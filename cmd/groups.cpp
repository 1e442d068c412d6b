// The command groups that only hold subcommands: submit, top, data, queue, runtime.
#include <CLI/CLI.hpp>

#include "cmd/commands.h"
#include "cmd/run.h"
#include "submit/submit_kind.h"

namespace trainctl {

namespace {

// A command that only holds subcommands: one of them must be named.
CLI::App* add_group(CLI::App& root, const std::string& name, const std::string& help, const std::string& examples) {
  auto* group = root.add_subcommand(name, help);
  group->require_subcommand(1);
  set_examples(group, examples);
  return group;
}

}  // namespace

void setup_submit(CLI::App& root, Factory& f) {
  std::string commands;
  for (const submit::SubmitKind* kind : submit::submit_commands())
    commands += (commands.empty() ? "" : ", ") + kind->rules.command;
  auto* submit = add_group(
      root, "submit", "Submit a training job (" + commands + ")",
      "  trainctl submit pytorch --name=mnist --gpus=1 --workers=3 --image=pytorch/pytorch \"python train.py\"\n");
  setup_submit_commands(*submit, f);
}

void setup_top(CLI::App& root, Factory& f) {
  auto* top = add_group(root, "top", "Show GPU usage of nodes and jobs", "  trainctl top node\n  trainctl top job\n");
  setup_top_node(*top, f);
  setup_top_job(*top, f);
  setup_queue_list(*top, f, "queue");
}

void setup_queue(CLI::App& root, Factory& f) {
  auto* queue = add_group(root, "queue", "Show the queues jobs wait in (Volcano, Kueue)",
                          "  trainctl queue list\n  trainctl queue pending cluster-a\n");
  setup_queue_list(*queue, f);
  setup_queue_pending(*queue, f);
}

void setup_runtime(CLI::App& root, Factory& f) {
  auto* runtime = add_group(root, "runtime", "Inspect the Kubeflow Trainer v2 runtimes TrainJobs run on",
                            "  trainctl runtime list\n");
  setup_runtime_list(*runtime, f);
}

void setup_data(CLI::App& root, Factory& f) {
  auto* data = add_group(root, "data", "Inspect the data volumes (PVCs) usable by jobs", "  trainctl data list\n");
  setup_data_list(*data, f);
}

}  // namespace trainctl
