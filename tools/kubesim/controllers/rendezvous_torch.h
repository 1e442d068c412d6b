// The PyTorch rendezvous a launcher command asks for, read as PyTorch reads it (pytorch/pytorch
// main; the same rules hold in every 2.x release read):
// - torchrun / python -m torch.distributed.run / python -m torch.distributed.launch:
//   torch/distributed/run.py get_args_parser (arguments, both spellings, defaults; every
//   option falls back to PET_<DEST>: torch/distributed/argparse_util.py `env`/`check_env`),
//   config_from_args, get_rdzv_endpoint, run (--standalone); the static backend
//   (elastic/rendezvous/static_tcp_rendezvous.py: a TCPStore on node rank 0 of max_nodes
//   nodes) with launcher/api.py's default rendezvous timeout of 900 s; the c10d backend
//   (c10d_rendezvous_backend.py: the store on the endpoint's host, default port 29400,
//   read_timeout 60 s; dynamic_rendezvous.py: join_timeout 600 s).
// - any other python command whose WORLD_SIZE is above 1: init_process_group's default env://
//   rendezvous (distributed_c10d.py init_process_group, rendezvous.py _env_rendezvous_handler:
//   RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT; a TCPStore on rank 0 waiting for WORLD_SIZE
//   processes) with its default timeout: 10 minutes for NCCL, 30 for the other backends
//   (_get_default_timeout). The backend is the script's own choice; kubesim takes NCCL when
//   the script's arguments say --backend nccl (or --dist-backend / --dist_backend), else 30 min.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "kubesim/controllers/rendezvous_shell.h"

namespace kubesim {

struct TorchRendezvous {
  enum class Kind {
    None,    // not a PyTorch rendezvous kubesim judges
    Static,  // torchrun's static TCPStore rendezvous (one store on node rank 0)
    C10d,    // torchrun's dynamic rendezvous on a c10d TCPStore
    Env,     // init_process_group(init_method="env://") in a plain python process
    Error,   // the launcher fails at once; error_lines say why
  };
  Kind kind = Kind::None;
  std::string host;  // master address (Static, Env) or rendezvous endpoint host (C10d)
  int port = 0;
  int min_nodes = 1, max_nodes = 1;  // torchrun --nnodes
  int rank = 0;                      // node rank (Static) or RANK (Env)
  int world = 1;                     // nodes (Static: max_nodes) or processes (Env: WORLD_SIZE)
  std::string nproc_per_node = "1";
  std::chrono::seconds timeout{0};          // store / join timeout
  std::chrono::seconds connect_timeout{0};  // C10d: read_timeout of the store
  std::vector<std::string> error_lines;
  std::string program;  // "torchrun" or "python"
  // C10d: the elastic agent's --max-restarts (default 0) and --role (default "default")
  // (torch/distributed/run.py get_args_parser).
  int max_restarts = 0;
  std::string role = "default";
};

TorchRendezvous torch_rendezvous(const LaunchCommand& cmd);

}  // namespace kubesim
