// What kubesim reads from a training container's command: the shell subset of `sh -c`,
// Kubernetes' $(VAR) expansion, the downward API, and torchrun's / init_process_group's
// arguments and defaults as torch/distributed/run.py, argparse_util.py and rendezvous.py
// define them.
#include <catch2/catch.hpp>

#include "kubesim/controllers/rendezvous_torch.h"

using namespace kubesim;
using json = nlohmann::json;
using Kind = TorchRendezvous::Kind;

namespace {

json env_list(const std::vector<std::pair<std::string, std::string>>& vars) {
  json out = json::array();
  for (const auto& [k, v] : vars) out.push_back({{"name", k}, {"value", v}});
  return out;
}

json pod_with(json container) {
  return {{"metadata",
           {{"name", "dist-1-abcde"},
            {"namespace", "default"},
            {"annotations", {{"batch.kubernetes.io/job-completion-index", "1"}}}}},
          {"spec", {{"hostname", "dist-1"}, {"subdomain", "dist"}, {"containers", json::array({container})}}}};
}

TorchRendezvous read(const std::string& script, const std::vector<std::pair<std::string, std::string>>& vars = {}) {
  json c = {{"name", "pytorch"}, {"command", json::array({"sh", "-c", script})}, {"env", env_list(vars)}};
  json pod = pod_with(c);
  return torch_rendezvous(launch_command(pod, pod["spec"]["containers"][0]));
}

TorchRendezvous read_exec(json command, json env = json::array()) {
  json c = {{"name", "pytorch"}, {"command", std::move(command)}, {"env", std::move(env)}};
  json pod = pod_with(c);
  return torch_rendezvous(launch_command(pod, pod["spec"]["containers"][0]));
}

}  // namespace

TEST_CASE("torchrun's defaults: one node, static rendezvous on 127.0.0.1:29500, 900 s", "[rendezvous][parse]") {
  const auto r = read("torchrun train.py --epochs 3");
  CHECK(r.kind == Kind::Static);
  CHECK(r.host == "127.0.0.1");
  CHECK(r.port == 29500);
  CHECK(r.rank == 0);
  CHECK(r.min_nodes == 1);
  CHECK(r.max_nodes == 1);
  CHECK(r.world == 1);
  CHECK(r.timeout == std::chrono::seconds(900));  // launcher/api.py LaunchConfig default
}

TEST_CASE("torchrun arguments in both spellings, = or a separate value, and unique prefixes",
          "[rendezvous][parse]") {
  const auto dashed = read("torchrun --nnodes 2 --node-rank=1 --master-addr m --master-port=1234 t.py");
  CHECK(dashed.kind == Kind::Static);
  CHECK(dashed.world == 2);
  CHECK(dashed.rank == 1);
  CHECK(dashed.host == "m");
  CHECK(dashed.port == 1234);
  const auto under = read("torchrun --nnodes=2 --node_rank 1 --master_addr=m --master_port 1234 t.py");
  CHECK(under.rank == 1);
  CHECK(under.host == "m");
  CHECK(under.port == 1234);
  // argparse accepts an unambiguous prefix of a long option.
  CHECK(read("torchrun --nnodes=2 --node_r=1 --master_a=m t.py").rank == 1);
  // Options after the script belong to the script.
  CHECK(read("torchrun t.py --node_rank=1").rank == 0);
  // --nnodes MIN:MAX: the static rendezvous waits for MAX nodes.
  const auto elastic = read("torchrun --nnodes=1:3 t.py");
  CHECK(elastic.min_nodes == 1);
  CHECK(elastic.max_nodes == 3);
  CHECK(elastic.world == 3);
}

TEST_CASE("torchrun reads PET_<ARG> for every argument it is not given", "[rendezvous][parse]") {
  const auto r = read("torchrun train.py", {{"PET_NNODES", "3"},
                                            {"PET_NODE_RANK", "2"},
                                            {"PET_MASTER_ADDR", "job-master-0"},
                                            {"PET_MASTER_PORT", "23456"},
                                            {"PET_NPROC_PER_NODE", "4"}});
  CHECK(r.kind == Kind::Static);
  CHECK(r.world == 3);
  CHECK(r.rank == 2);
  CHECK(r.host == "job-master-0");
  CHECK(r.port == 23456);
  CHECK(r.nproc_per_node == "4");
  // An argument wins over its variable.
  CHECK(read("torchrun --node_rank=0 train.py", {{"PET_NODE_RANK", "2"}}).rank == 0);
}

TEST_CASE("shell variables in the command expand from the container's env as sh -c does",
          "[rendezvous][parse]") {
  json env = env_list({{"WORLD_SIZE", "2"}, {"MASTER_ADDR", "dist-0.dist"}});
  env.push_back({{"name", "RANK"},
                 {"valueFrom",
                  {{"fieldRef", {{"fieldPath", "metadata.annotations['batch.kubernetes.io/job-completion-index']"}}}}}});
  json c = {{"name", "pytorch"},
            {"command", json::array({"sh", "-c",
                                     "cd /root && torchrun --nnodes=$WORLD_SIZE --node_rank=${RANK} "
                                     "--master_addr=\"$MASTER_ADDR\" --master_port=${PORT:-29501} train.py"})},
            {"env", env}};
  json pod = pod_with(c);
  const auto r = torch_rendezvous(launch_command(pod, pod["spec"]["containers"][0]));
  CHECK(r.kind == Kind::Static);
  CHECK(r.world == 2);
  CHECK(r.rank == 1);  // the completion index, through the downward API
  CHECK(r.host == "dist-0.dist");
  CHECK(r.port == 29501);  // ${PORT:-29501}
  // An unset variable expands to nothing: torchrun then reads --node_rank= as "" and fails
  // to parse it; kubesim does not judge such a command.
  CHECK(read("torchrun --nnodes=2 --node_rank=$NOPE t.py").kind == Kind::None);
}

TEST_CASE("Kubernetes expands $(VAR) in command and args before anything runs", "[rendezvous][parse]") {
  const auto r = read_exec(json::array({"torchrun", "--nnodes=$(N)", "--node_rank=$(R)", "t.py"}),
                           env_list({{"N", "4"}, {"R", "3"}}));
  CHECK(r.kind == Kind::Static);
  CHECK(r.world == 4);
  CHECK(r.rank == 3);
  // $$ escapes; an undefined $(X) stays as written (and is not a number).
  CHECK(read_exec(json::array({"torchrun", "--nnodes=$(X)", "t.py"})).kind == Kind::None);
}

TEST_CASE("python -m torch.distributed.run / launch take torchrun's arguments", "[rendezvous][parse]") {
  const auto run = read("python3 -u -m torch.distributed.run --nproc_per_node=2 --nnodes=2 --node_rank=1 "
                        "--master_addr=a --master_port=5 t.py");
  CHECK(run.kind == Kind::Static);
  CHECK(run.world == 2);
  CHECK(run.rank == 1);
  const auto launch = read("python -m torch.distributed.launch --use_env --nnodes=2 --master_addr=a t.py");
  CHECK(launch.kind == Kind::Static);
  CHECK(launch.world == 2);
}

TEST_CASE("--standalone and --rdzv-backend=c10d: a c10d store, 29400 by default, 600 s to join, 60 s to connect",
          "[rendezvous][parse]") {
  const auto s = read("torchrun --standalone --nproc-per-node=4 t.py");
  CHECK(s.kind == Kind::C10d);
  CHECK(s.host == "localhost");
  CHECK(s.port == 0);
  const auto c = read("torchrun --nnodes=2:4 --rdzv-backend=c10d --rdzv-endpoint=job-worker-0 t.py");
  CHECK(c.kind == Kind::C10d);
  CHECK(c.host == "job-worker-0");
  CHECK(c.port == 29400);
  CHECK(c.min_nodes == 2);
  CHECK(c.timeout == std::chrono::seconds(600));
  CHECK(c.connect_timeout == std::chrono::seconds(60));
  CHECK(read("torchrun --rdzv_backend=c10d --rdzv_endpoint=h:7 --rdzv_conf=join_timeout=30,read_timeout=5 t.py")
            .timeout == std::chrono::seconds(30));
  // etcd and custom backends are not judged.
  CHECK(read("torchrun --rdzv-backend=etcd-v2 --rdzv-endpoint=etcd:2379 t.py").kind == Kind::None);
}

TEST_CASE("a plain python script with WORLD_SIZE above 1 is an env:// init_process_group", "[rendezvous][parse]") {
  const std::vector<std::pair<std::string, std::string>> env = {
      {"WORLD_SIZE", "3"}, {"RANK", "2"}, {"MASTER_ADDR", "job-master-0"}, {"MASTER_PORT", "23456"}};
  const auto r = read("python /root/code/mnist.py --epochs 10", env);
  CHECK(r.kind == Kind::Env);
  CHECK(r.world == 3);
  CHECK(r.rank == 2);
  CHECK(r.host == "job-master-0");
  CHECK(r.port == 23456);
  CHECK(r.timeout == std::chrono::seconds(1800));  // default_pg_timeout
  CHECK(read("python mnist.py --backend nccl", env).timeout == std::chrono::seconds(600));
  CHECK(read("python mnist.py --dist-backend=nccl", env).timeout == std::chrono::seconds(600));
  // One process: nothing to meet.
  CHECK(read("python mnist.py", {{"WORLD_SIZE", "1"}}).kind == Kind::None);
  CHECK(read("python mnist.py").kind == Kind::None);
}

TEST_CASE("env:// without MASTER_ADDR fails at once with rendezvous.py's error", "[rendezvous][parse]") {
  const auto r = read("python train.py", {{"WORLD_SIZE", "2"}, {"RANK", "0"}, {"MASTER_PORT", "1"}});
  CHECK(r.kind == Kind::Error);
  REQUIRE_FALSE(r.error_lines.empty());
  CHECK(r.error_lines.back() ==
        "ValueError: Error initializing torch.distributed using env:// rendezvous: environment variable "
        "MASTER_ADDR expected, but not set");
}

TEST_CASE("scripts kubesim does not judge run as before", "[rendezvous][parse]") {
  const std::vector<std::pair<std::string, std::string>> env = {
      {"WORLD_SIZE", "8"}, {"RANK", "0"}, {"MASTER_ADDR", "m"}, {"MASTER_PORT", "1"}};
  CHECK(read("python train.py", env).kind == Kind::Env);  // the control: judged
  CHECK(read("bash run.sh", env).kind == Kind::None);     // a wrapper script
  CHECK(read("deepspeed train.py", env).kind == Kind::None);
  CHECK(read("if true; then python train.py; fi", env).kind == Kind::None);
  CHECK(read("python prepare.py && python train.py", env).kind == Kind::None);  // two launchers
  CHECK(read("(python train.py)", env).kind == Kind::None);
  // A value kubesim cannot know before the script: torchrun's arguments are unknown.
  CHECK(read("torchrun --nnodes=2 --master_addr=$(hostname -i) t.py").kind == Kind::None);
  // Harmless neighbours, redirections and pipes to tee keep it judged.
  CHECK(read("pip install -r req.txt && echo start; python train.py --backend=nccl 2>&1 | tee /tmp/log", env).kind ==
        Kind::Env);
  // export and one-shot assignments.
  CHECK(read("export WORLD_SIZE=1; python train.py", env).kind == Kind::None);
  CHECK(read("WORLD_SIZE=1 python train.py", env).kind == Kind::None);
  CHECK(read("RANK=1 exec python train.py", env).rank == 1);
}

TEST_CASE("values from ConfigMaps and envFrom are unknown: not judged", "[rendezvous][parse]") {
  json env = env_list({{"RANK", "0"}, {"MASTER_ADDR", "m"}, {"MASTER_PORT", "1"}});
  env.push_back({{"name", "WORLD_SIZE"}, {"valueFrom", {{"configMapKeyRef", {{"name", "c"}, {"key", "k"}}}}}});
  CHECK(read_exec(json::array({"python", "train.py"}), env).kind == Kind::None);
  json c = {{"name", "pytorch"},
            {"command", json::array({"python", "train.py"})},
            {"envFrom", json::array({{{"configMapRef", {{"name", "c"}}}}})}};
  json pod = pod_with(c);
  CHECK(torch_rendezvous(launch_command(pod, pod["spec"]["containers"][0])).kind == Kind::None);
}
