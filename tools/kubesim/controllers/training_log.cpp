// Deterministic training-like container output.
#include "kubesim/controllers/training_log.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <regex>

#include "kubesim/controllers/rendezvous_env.h"

namespace kubesim {

namespace {

// A number in [0, 1) fixed by (a, b): the spread of one rank's batch loss around the mean.
double spread(uint64_t a, uint64_t b) {
  uint64_t x = a * 0x9E3779B97F4A7C15ull + b * 0xC2B2AE3D27D4EB4Full + 0x165667B19E3779F9ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  x ^= x >> 31;
  return static_cast<double>(x >> 11) / 9007199254740992.0;  // 2^53
}

long long number_or(const std::optional<std::string>& text, long long fallback) {
  if (!text || text->empty() || text->size() > 9 ||
      text->find_first_not_of("0123456789") != std::string::npos)
    return fallback;
  return std::stoll(*text);
}

}  // namespace

TrainingLog::TrainingLog(const nlohmann::json& pod, const nlohmann::json& container, size_t total_lines)
    : m_total(total_lines == 0 ? 1 : total_lines) {
  m_container = container.value("name", "main");
  for (const char* key : {"command", "args"}) {
    if (!container.contains(key) || !container[key].is_array()) continue;
    for (const auto& part : container[key])
      if (part.is_string()) m_command += part.get<std::string>() + " ";
  }
  // A python script, or torchrun, which runs one (a Kubeflow Trainer torch node's command).
  m_training = m_command.find("python") != std::string::npos || m_command.find("train") != std::string::npos ||
               m_command.find("torchrun") != std::string::npos;
  std::smatch m;
  static const std::regex epochs_re("--epochs[ =]+([0-9]+)");
  if (std::regex_search(m_command, m, epochs_re)) m_epochs = std::max(1, std::stoi(m[1].str()));
  if (!m_training) return;
  // RANK and WORLD_SIZE as the process sees them: literal, or through the downward API (the
  // operator-free job's RANK is its pod's completion index).
  const ContainerEnv env = ContainerEnv::of(pod, container);
  // Without them, what torchrun gives its worker of local rank 0 from a static PET_NNODES (an
  // elastic "min:max" leaves world 1, rank 0): PET_NNODES x PET_NPROC_PER_NODE and
  // PET_NODE_RANK x PET_NPROC_PER_NODE (torch/distributed/run.py).
  const long long nproc = std::max(1LL, number_or(env.value("PET_NPROC_PER_NODE"), 1));
  const long long nnodes = number_or(env.value("PET_NNODES"), 0);
  const long long node_rank = number_or(env.value("PET_NODE_RANK"), 0);
  m_world = std::max(1LL, number_or(env.value("WORLD_SIZE"), nnodes > 0 ? nnodes * nproc : 1));
  m_rank = number_or(env.value("RANK"), node_rank * nproc);
  // kubeflow/training-operator v1.9.0 examples/pytorch/mnist/mnist.py: the loader takes its
  // batches from a DistributedSampler, so each rank trains on its own ceil(60000 / WORLD_SIZE)
  // samples in ceil(that / 64) batches. The script logs every 10th (--log-interval); a run
  // that writes more lines than that (kubesim writes a line a second) is one started with a
  // smaller interval, the largest that logs no batch twice.
  const auto world = static_cast<size_t>(m_world);
  m_batches = ((60000 + world - 1) / world + 63) / 64;
  const size_t progress_lines = m_total > 3 ? m_total - 3 : 1;
  const auto logged = [&](size_t interval) {
    return (m_batches + interval - 1) / interval * static_cast<size_t>(m_epochs);
  };
  for (m_interval = 10; m_interval > 1 && logged(m_interval) < progress_lines;) --m_interval;
  m_header = {"WORLD_SIZE: " + std::to_string(m_world) + ", CURRENT_RANK: " + std::to_string(m_rank),
              "args: Namespace(backend='nccl', batch_size=64, data='/mnist_data/pytorch_data/', "
              "dir='/mnist_data/pytorch_data/logs', epochs=" +
                  std::to_string(m_epochs) + ", log_interval=" + std::to_string(m_interval) +
                  ", lr=0.01, momentum=0.5, no_cuda=False, save_model=False, seed=1, test_batch_size=1000)",
              "Using CUDA"};
}

std::string TrainingLog::line(size_t n) const {
  const std::string step = " step=" + std::to_string(n + 1);
  if (!m_training) return m_container + " running:" + step;
  if (n < m_header.size()) return m_header[n];
  // Every m_interval-th batch prints the rank's own progress (batch_idx * 64 of len(dataset),
  // 100 * batch_idx / len(loader) %) and the loss of the rank's own batch. The ranks step
  // together; the model has seen WORLD_SIZE * 64 samples a step, so the loss falls with the
  // whole job's progress and differs by rank with the data.
  const size_t progress_lines = m_total > m_header.size() ? m_total - m_header.size() : 1;
  const size_t per_epoch = (m_batches + m_interval - 1) / m_interval;
  const size_t k = n - m_header.size();
  const size_t total_logged = per_epoch * static_cast<size_t>(m_epochs);
  size_t b = progress_lines <= 1 ? total_logged - 1 : k * (total_logged - 1) / (progress_lines - 1);
  if (b >= total_logged) b = total_logged - 1;
  const size_t epoch = b / per_epoch + 1;
  const size_t batch_idx = (b % per_epoch) * m_interval;
  const size_t steps = (epoch - 1) * m_batches + batch_idx;
  const double seen = static_cast<double>(steps * 64 * static_cast<size_t>(m_world));
  const auto rank = static_cast<uint64_t>(m_rank);
  const double loss = 0.0026 + 2.2 * std::exp(-seen / 38400.0) * (0.8 + 0.4 * spread(steps, rank)) +
                      0.01 * spread(rank, steps);
  char buf[128];
  std::snprintf(buf, sizeof buf, "Train Epoch: %zu [%zu/60000 (%.0f%%)] loss=%.4f", epoch, batch_idx * 64,
                100.0 * static_cast<double>(batch_idx) / static_cast<double>(m_batches), loss);
  return buf + step;
}

std::vector<std::string> TrainingLog::final_lines(int exit_code) const {
  if (!m_final.empty()) return m_final;
  if (!m_training) {
    if (exit_code == 0) return {m_container + " completed"};
    return {m_container + " exited with code " + std::to_string(exit_code)};
  }
  if (exit_code == 0) return {"", "accuracy=0.9904"};
  return {"Traceback (most recent call last):",
          "RuntimeError: NCCL communicator was aborted on rank " + std::to_string(m_rank) + "."};
}

}  // namespace kubesim
