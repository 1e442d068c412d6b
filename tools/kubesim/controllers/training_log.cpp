// Deterministic training-like container output.
#include "kubesim/controllers/training_log.h"

#include <cmath>
#include <cstdio>
#include <regex>

#include "kubesim/controllers/rendezvous_env.h"

namespace kubesim {

TrainingLog::TrainingLog(const nlohmann::json& container, size_t total_lines, const nlohmann::json* pod)
    : m_total(total_lines == 0 ? 1 : total_lines) {
  m_container = container.value("name", "main");
  m_env = container.value("env", nlohmann::json::array());
  if (pod) {
    const ContainerEnv resolved = ContainerEnv::of(*pod, container);
    for (const char* name : {"RANK", "WORLD_SIZE", "PET_NNODES", "PET_NODE_RANK", "PET_NPROC_PER_NODE"})
      if (auto v = resolved.value(name)) m_resolved[name] = *v;
  }
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
  if (m_training) {
    // torchrun's environment for its worker of local rank 0, from a static PET_NNODES (an
    // elastic "min:max" leaves the header as it was).
    auto number = [](const std::string& v) {
      return !v.empty() && v.find_first_not_of("0123456789") == std::string::npos && v.size() < 9 ? std::stoi(v) : -1;
    };
    const int nproc = std::max(1, number(env("PET_NPROC_PER_NODE", "1")));
    std::string world = env("WORLD_SIZE", ""), rank = env("RANK", "");
    if (world.empty() && number(env("PET_NNODES", "")) > 0) world = std::to_string(number(env("PET_NNODES", "")) * nproc);
    if (rank.empty() && number(env("PET_NODE_RANK", "")) >= 0) rank = std::to_string(number(env("PET_NODE_RANK", "")) * nproc);
    if (world.empty()) world = "1";
    if (rank.empty()) rank = "0";
    m_rank = rank;
    m_header = {"WORLD_SIZE: " + world + ", CURRENT_RANK: " + rank,
                "args: Namespace(backend='nccl', batch_size=64, data='/mnist_data/pytorch_data/', "
                "dir='/mnist_data/pytorch_data/logs', epochs=" +
                    std::to_string(m_epochs) +
                    ", log_interval=10, lr=0.01, momentum=0.5, no_cuda=False, save_model=False, "
                    "seed=1, test_batch_size=1000)",
                "Using CUDA"};
  }
}

std::string TrainingLog::env(const std::string& name, const std::string& fallback) const {
  if (auto it = m_resolved.find(name); it != m_resolved.end()) return it->second;
  for (const auto& e : m_env)
    if (e.value("name", "") == name && e.contains("value") && e["value"].is_string())
      return e["value"].get<std::string>();
  return fallback;
}

std::string TrainingLog::line(size_t n) const {
  const std::string step = " step=" + std::to_string(n + 1);
  if (!m_training) return m_container + " running:" + step;
  if (n < m_header.size()) return m_header[n];
  // Progress lines cover the epochs evenly: 94 logged batches (every 10th of 938) per epoch.
  const size_t per_epoch = 94;
  const size_t progress_lines = m_total > m_header.size() ? m_total - m_header.size() : 1;
  const size_t k = n - m_header.size();
  const size_t total_batches = per_epoch * static_cast<size_t>(m_epochs);
  size_t b = progress_lines <= 1 ? total_batches - 1 : k * (total_batches - 1) / (progress_lines - 1);
  if (b >= total_batches) b = total_batches - 1;
  const size_t epoch = b / per_epoch + 1;
  const size_t samples = (b % per_epoch) * 640;
  const int pct = static_cast<int>(100.0 * static_cast<double>(samples) / 60000.0);
  const double loss = 0.0026 + 2.2 * std::exp(-static_cast<double>(b) / 60.0) +
                      0.01 * static_cast<double>((b * 7919) % 13) / 13.0;
  char buf[128];
  std::snprintf(buf, sizeof buf, "Train Epoch: %zu [%zu/60000 (%d%%)] loss=%.4f", epoch, samples, pct, loss);
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
          "RuntimeError: NCCL communicator was aborted on rank " + m_rank + "."};
}

}  // namespace kubesim
