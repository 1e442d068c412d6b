// The command groups that only hold subcommands: submit, top, data.
#include <CLI/CLI.hpp>

#include "cmd/commands.h"
#include "cmd/run.h"

namespace trainctl {

void setup_submit(CLI::App& root, Factory& f) {
  auto* submit = root.add_subcommand("submit", "Submit a training job (pytorch, mpi, volcano)");
  submit->require_subcommand(1);
  set_examples(submit,
               "  trainctl submit pytorch --name=mnist --gpus=1 --workers=3 --image=pytorch/pytorch \"python train.py\"\n");
  setup_submit_pytorch(*submit, f);
  setup_submit_mpi(*submit, f);
  setup_submit_volcano(*submit, f);
}

void setup_top(CLI::App& root, Factory& f) {
  auto* top = root.add_subcommand("top", "Show GPU usage of nodes and jobs");
  top->require_subcommand(1);
  set_examples(top, "  trainctl top node\n  trainctl top job\n");
  setup_top_node(*top, f);
  setup_top_job(*top, f);
}

void setup_data(CLI::App& root, Factory& f) {
  auto* data = root.add_subcommand("data", "Inspect the data volumes (PVCs) usable by jobs");
  data->require_subcommand(1);
  set_examples(data, "  trainctl data list\n");
  setup_data_list(*data, f);
}

}  // namespace trainctl
