// The lines a simulated container prints. Containers whose command mentions python, train or
// torchrun print an MNIST-style training log like the PyTorch example's:
//   WORLD_SIZE: 3, CURRENT_RANK: 0
//   args: Namespace(...)
//   Using CUDA
//   Train Epoch: 1 [640/60000 (1%)] loss=0.8923 step=4
//   ...
//   (empty line)
//   accuracy=0.9904
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
  // container: the pod's container spec (command, args, env); total_lines: how many lines
  // the run will write before its final lines (derived from duration / interval); pod: the
  // pod, for the values of fieldRef variables (optional).
  TrainingLog(const nlohmann::json& container, size_t total_lines, const nlohmann::json* pod = nullptr);

  bool is_training() const { return m_training; }
  // The n-th line (0-based) of the running phase.
  std::string line(size_t n) const;
  // Lines written when the container exits with exit_code.
  std::vector<std::string> final_lines(int exit_code) const;
  // The launcher's own last words instead (a rendezvous it gave up, rendezvous.h).
  void set_final_lines(std::vector<std::string> lines) { m_final = std::move(lines); }

 private:
  std::string env(const std::string& name, const std::string& fallback) const;
  bool m_training = false;
  std::string m_container;
  nlohmann::json m_env;
  std::map<std::string, std::string> m_resolved;  // fieldRef variables' values
  std::string m_rank = "0";
  std::string m_command;
  size_t m_total = 1;
  int m_epochs = 10;
  std::vector<std::string> m_header;
  std::vector<std::string> m_final;
};

}  // namespace kubesim
