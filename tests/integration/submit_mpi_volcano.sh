#!/usr/bin/env bash
# Seed 004 (submit mpi, with and without --gputopology) and seed 003 (PaddlePaddle on
# Volcano) command lines against kubesim: created and Running; --wait=finished ends with
# exit 0; a missing CRD gives the not-installed message.
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
start_kubesim --default-outcome succeed --default-duration 20s

CMD='mpirun --allow-run-as-root -np "4" -bind-to none -map-by slot -x NCCL_DEBUG=INFO -x NCCL_SOCKET_IFNAME=eth0 -x LD_LIBRARY_PATH -x PATH --mca pml ob1 --mca btl_tcp_if_include eth0 --mca oob_tcp_if_include eth0 --mca orte_keep_fqdn_hostnames t --mca btl ^openib python /examples/pytorch_synthetic_benchmark.py --model=vgg16 --batch-size=64'
IMAGE=registry.cn-hangzhou.aliyuncs.com/kubernetes-image-hub/pytorch-benchmark:torch1.6.0-py3.7-cuda10.1

OUT=$(tc submit mpi \
  --name=pytorch-topo-4-vgg16 \
  --gpus=1 \
  --workers=4 \
  --gputopology=true \
  -a kubesim.trainctl.io/outcome=run-forever \
  --image=$IMAGE \
  --wait --timeout=60s \
  "$CMD" 2>&1) || fail "seed 004 topology: $OUT"
expect_output "seed 004 topology" "The Job pytorch-topo-4-vgg16 has been submitted successfully"
expect_output "seed 004 topology" "job pytorch-topo-4-vgg16: 5/5 pods running"
# The four workers share topo-a, the one node with aliyun.com/gpu, as in the seed's output
# (the job runs on, so that its pods are still there however slow this machine is).
# On the host network their sshd would collide there (kubesim models it as a kubelet does:
# admitted, then the second sshd cannot bind): --gputopology keeps the pod network.
if command -v kubectl >/dev/null 2>&1; then
  placed=$(kubectl --kubeconfig "$KCFG" get pods \
    -l training.kubeflow.org/job-name=pytorch-topo-4-vgg16,training.kubeflow.org/job-role=worker \
    -o jsonpath='{range .items[*]}{.spec.nodeName}/{.spec.hostNetwork}{"\n"}{end}' | sort | uniq -c)
  [[ "$placed" =~ ^\ *4\ topo-a/$ ]] || fail "seed 004 topology workers: $placed"
else
  skip_or_fail "kubectl not found"
fi

OUT=$(tc submit mpi \
  --name=pytorch-4-vgg16 \
  --gpus=1 \
  --workers=4 \
  --image=$IMAGE \
  --wait=finished --timeout=120s \
  "$CMD" 2>&1) || fail "seed 004: $OUT"
expect_output "seed 004" "job pytorch-4-vgg16: SUCCEEDED"
expect_output "seed 004" "The Job pytorch-4-vgg16 has succeeded"
# WaitForWorkersReady (mpi-operator mpi_job_controller.go): the launcher Job is created only
# once every worker is Ready, read back with kubectl (while the job runs: cleanPodPolicy All
# removes the workers at the end).
OUT=$(tc submit mpi --name=wait-workers --workers=3 --image=$IMAGE -a kubesim.trainctl.io/outcome=run-forever \
  --wait --timeout=60s "$CMD" 2>&1) || fail "wait-workers: $OUT"
if command -v kubectl >/dev/null 2>&1; then
  launcher=$(kubectl --kubeconfig "$KCFG" get job.batch wait-workers-launcher -o jsonpath='{.metadata.creationTimestamp}')
  ready=$(kubectl --kubeconfig "$KCFG" get pods -l training.kubeflow.org/job-name=wait-workers,training.kubeflow.org/job-role=worker \
    -o jsonpath='{range .items[*]}{.status.conditions[?(@.type=="Ready")].lastTransitionTime}{"\n"}{end}' | sort | tail -1)
  [[ -n "$launcher" && -n "$ready" && ! "$launcher" < "$ready" ]] ||
    fail "the launcher ($launcher) was created before the last worker was Ready ($ready)"
else
  skip_or_fail "kubectl not found"
fi

# Seed 001: a gang that counts the launcher (mpi-operator's own minAvailable, the launcher and
# the workers) forms: the launcher is created with the workers (launcherCreationPolicy
# AtStartup), the PodGroup's two members exist, both run.
OUT=$(tc submit mpi --name=gang-launcher --workers 1 --gang --min-available 2 --image=$IMAGE \
  -a kubesim.trainctl.io/outcome=run-forever --wait --timeout=60s "$CMD" 2>&1) || fail "gang with the launcher: $OUT"
expect_output "gang with the launcher" "job gang-launcher: 2/2 pods running"
if command -v kubectl >/dev/null 2>&1; then
  policy=$(kubectl --kubeconfig "$KCFG" get mpijob gang-launcher -o jsonpath='{.spec.launcherCreationPolicy}')
  [[ "$policy" == AtStartup ]] || fail "gang with the launcher: launcherCreationPolicy $policy"
fi

OUT=$(tc submit volcano --name=fluid-ctr --image=paddlepaddle/edl-example:ctr \
  --task="pserver:2:paddlepaddle/edl-example:ctr:TRAINING_ROLE=PSERVER paddle_k8s start_fluid" \
  --task=trainer:2 --cpu=1 --memory=2Gi --wait --timeout=60s \
  "TRAINING_ROLE=TRAINER paddle_k8s start_fluid" 2>&1) || fail "seed 003: $OUT"
expect_output "seed 003" "job fluid-ctr: 4/4 pods running"
expect_output "seed 003" "--type volcanojob -n default"
echo "ok"
