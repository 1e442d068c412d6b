// The lines a simulated container prints. Containers whose command mentions python, train or
// torchrun print the training log of the PyTorch MNIST example (kubeflow/training-operator
// v1.9.0 examples/pytorch/mnist/mnist.py, with the header of Arena's sample), each rank its own:
//   WORLD_SIZE: 3, CURRENT_RANK: 1
//   args: Namespace(...)
//   Using CUDA
//   Train Epoch: 1 [640/60000 (3%)] loss=0.8923 step=4
//   ...
//   (empty line)
//   accuracy=0.9904
// A rank trains on its DistributedSampler shard (ceil(60000 / WORLD_SIZE) samples, 64 a
// batch) and prints its own progress in it and the loss of its own batches, every 10th batch
// (every 5th, ..., every one: log_interval in the args line, when the run is long enough to
// write more lines than that).
// The header's world size and rank are WORLD_SIZE and RANK, or what torchrun makes of the
// PET_* variables a Kubeflow Trainer torch node gets (PET_NNODES x PET_NPROC_PER_NODE, and
// PET_NODE_RANK x PET_NPROC_PER_NODE for local rank 0; torch/distributed/run.py), their
// downward-API values read from the pod.
// Progress lines end with "step=N", N being the 1-based number of the line in the log, so a
// reader can prove that no line was lost or doubled. Other containers print
// "<container> running: step=N".
#pragma once

#include <nlohmann/json.hpp>
#include <map>
#include <string>
#include <vector>

namespace kubesim {

class TrainingLog {
 public:
  // container: one of pod's container specs (command, args, env: RANK and WORLD_SIZE, also
  // through the downward API); total_lines: how many lines the run will write before its
  // final lines (derived from duration / interval).
  TrainingLog(const nlohmann::json& pod, const nlohmann::json& container, size_t total_lines);

  bool is_training() const { return m_training; }
  // The n-th line (0-based) of the running phase.
  std::string line(size_t n) const;
  // Lines written when the container exits with exit_code.
  std::vector<std::string> final_lines(int exit_code) const;
  // The launcher's own last words instead (a rendezvous it gave up, rendezvous.h).
  void set_final_lines(std::vector<std::string> lines) { m_final = std::move(lines); }

 private:
  bool m_training = false;
  std::string m_container;
  long long m_world = 1;   // WORLD_SIZE
  long long m_rank = 0;    // RANK
  size_t m_batches = 1;    // the rank's batches an epoch
  size_t m_interval = 10;  // a line every m_interval batches (the script's --log-interval)
  std::string m_command;
  size_t m_total = 1;
  int m_epochs = 10;
  std::vector<std::string> m_header;
  std::vector<std::string> m_final;
};

}  // namespace kubesim
