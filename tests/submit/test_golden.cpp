// Golden manifests: one case per group of flags, each compared after parsing with
// tests/golden/submit/NAME.yaml and validated against the real schemas.
#include <catch2/catch.hpp>

#include "submit_testing.h"

using namespace trainctl::testing;

namespace {
void golden(const std::string& name, const std::string& kind, const std::vector<std::string>& args) {
  check_golden(name, submit_objects(kind, args));
}
}  // namespace

TEST_CASE("golden: pytorch with defaults only", "[golden]") {
  golden("pytorch_minimal", "pytorch", {"--name=mnist", "--image=pytorch/pytorch:2.3", "python train.py"});
}

TEST_CASE("golden: pytorch with every pod and run-policy flag", "[golden]") {
  golden("pytorch_all_flags", "pytorch",
         {"--name=bert",
          "--image=pytorch/pytorch:2.3",
          "--workers=3",
          "--gpus=2",
          "--cpu=4",
          "--memory=16Gi",
          "-e",
          "LR=0.1",
          "--env=OPTS=a=b",
          "--data=training-data:/data",
          "--data-dir=/mnt/datasets:/datasets",
          "--data-dir=/mnt/cache",
          "--selector=accelerator=v100",
          "--toleration=gpu=true:NoSchedule",
          "--toleration=dedicated:NoExecute",
          "--toleration=all",
          "-a",
          "team.example.com/owner=ml team",
          "-l",
          "project=bert",
          "--image-pull-secret=regcred",
          "--scheduler=volcano",
          "-p",
          "high",
          "--shell=bash",
          "--working-dir=/workspace",
          "--retry=3",
          "--running-timeout=2h",
          "--ttl-after-finished=30m",
          "--clean-task-policy=All",
          "--share-memory=8Gi",
          "--nproc-per-node=2",
          "--gang",
          "--queue=research",
          "--min-available=3",
          "--schedule-timeout=180s",
          "--min-resources=cpu=12",
          "--",
          "python",
          "train.py",
          "--epochs=3"});
}

TEST_CASE("golden: pytorch seed 000 (git sync, PVC, TensorBoard on the PVC)", "[golden][seed]") {
  golden("pytorch_seed000", "pytorch",
         {"--name=pytorch-dist", "--gpus=1", "--workers=3", "--working-dir=/root",
          "--image=registry.cn-beijing.aliyuncs.com/ai-samples/"
          "pytorch-with-tensorboard:1.5.1-cuda10.1-cudnn7-runtime",
          "--sync-mode=git", "--sync-source=https://code.aliyun.com/370272561/mnist-pytorch.git",
          "--data=training-data:/mnist_data", "--tensorboard", "--logdir=/mnist_data/pytorch_data/logs",
          "python /root/code/mnist-pytorch/mnist.py --epochs 10 --backend nccl --dir "
          "/mnist_data/pytorch_data/logs "
          "--data /mnist_data/pytorch_data/"});
}

TEST_CASE("golden: pytorch TensorBoard with a node-local logdir, rsync code", "[golden]") {
  golden("pytorch_tensorboard_hostpath", "pytorch",
         {"--name=tb", "--image=pytorch/pytorch:2.3", "--workers=2", "--tensorboard",
          "--tensorboard-image=tensorflow/tensorflow:2.15.0", "--sync-mode=rsync",
          "--sync-source=10.0.0.5::code/project", "--sync-image=example.com/rsync:3", "--cpu=2",
          "python train.py"});
}

TEST_CASE("golden: pytorch without the training-operator", "[golden]") {
  golden("pytorch_operator_none", "pytorch",
         {"--name=ddp", "--image=pytorch/pytorch:2.3", "--operator", "none", "--workers=3", "--gpus=1",
          "--nproc-per-node=gpu", "--master-port=29500", "--retry=2",
          "torchrun --nnodes=$WORLD_SIZE --node_rank=$RANK train.py"});
}

// training-operator v1.9.0: Workers only (pytorchjob_webhook.go requires them with an
// elasticPolicy), elasticPolicy fields as pytorch_types.go names them, the gang at --min-workers,
// TensorBoard beside worker-0 (the rendezvous host of elastic.go).
TEST_CASE("golden: elastic pytorch", "[golden][elastic]") {
  golden("pytorch_elastic", "pytorch",
         {"--name=elastic-imagenet", "--image=pytorch/pytorch:2.3", "--min-workers=2", "--max-workers=4",
          "--workers=3", "--max-restarts=3", "--rdzv-port=29400", "--gpus=1", "--nproc-per-node=gpu",
          "--gang", "--tensorboard", "--data=imagenet:/data",
          "torchrun imagenet.py --arch=resnet18 --epochs=20 /data/imagenet"});
}

TEST_CASE("golden: mpi seed 004 with --gputopology", "[golden][seed]") {
  golden("mpi_seed004_topology", "mpi",
         {"--name=pytorch-topo-4-vgg16", "--gpus=1", "--workers=4", "--gputopology=true",
          "--image=registry.cn-hangzhou.aliyuncs.com/kubernetes-image-hub/"
          "pytorch-benchmark:torch1.6.0-py3.7-cuda10.1",
          "mpirun --allow-run-as-root -np \"4\" -bind-to none -map-by slot -x NCCL_DEBUG=INFO python "
          "/examples/pytorch_synthetic_benchmark.py --model=vgg16 --batch-size=64"});
}

TEST_CASE("golden: mpi seed 001 scheduling policy", "[golden][seed]") {
  golden("mpi_seed001_gang", "mpi",
         {"--name=tensorflow-benchmarks", "--image=mpioperator/tensorflow-benchmarks:latest", "--workers=2",
          "--gpus=2", "--slots-per-worker=2", "--clean-task-policy=Running", "--gang", "--min-available=2",
          "--queue=test-queue", "--min-resources=cpu=3000m", "--priority=high", "--schedule-timeout=180s",
          "-a", "sidecar.istio.io/inject=false",
          "mpirun --allow-run-as-root -np 4 python scripts/tf_cnn_benchmarks/tf_cnn_benchmarks.py "
          "--model=resnet101"});
}

TEST_CASE("golden: volcano seed 003 PaddlePaddle pserver + trainer", "[golden][seed]") {
  golden("volcano_seed003_paddle", "volcano",
         {"--name=fluid-ctr", "--image=paddlepaddle/edl-example:ctr",
          "--task=pserver:2:paddlepaddle/edl-example:ctr:TRAINING_ROLE=PSERVER paddle_k8s start_fluid",
          "--task=trainer:2", "--cpu=1", "--memory=2Gi", "-e", "PADDLE_JOB_NAME=fluid-ctr",
          // The labels paddle_k8s waits for, and the trainers' completion ending the job, as in
          // volcano's example/integrations/paddlepaddle/ctr-paddlepaddle-on-volcano.yaml.
          "--task-label=pserver:paddle-job-pserver=fluid-ctr", "--task-label=trainer:paddle-job=fluid-ctr",
          "--task-policy=trainer:TaskCompleted=CompleteJob", "--task-port=30236",
          "TRAINING_ROLE=TRAINER paddle_k8s start_fluid"});
}

TEST_CASE("golden: volcano with Arena's volcanojob flags", "[golden]") {
  golden(
      "volcano_arena_flags", "volcano",
      {"--name=demo", "--task-images=ubuntu:22.04", "--task-images=nginx", "--task-replicas=2",
       "--task-name=worker", "--task-cpu=250m", "--task-memory=128Mi", "--task-port=2222",
       "--min-available=2", "--queue=default", "--scheduler-name=volcano", "-l", "team=infra", "sleep 3600"});
}
