#!/usr/bin/env bash
# The distributed contract, end to end: jobs as trainctl renders them train on kubesim, whose
# kubelets now fail a job whose ranks could never meet as PyTorch and OpenMPI would (see
# docs/kubesim.md "Distributed contract"). Alongside, the broken jobs a user can hit: a
# WORLD_SIZE counting processes that never come, an operator-free torchrun without a master
# address, an MPIJob launcher started before its workers with no retry left.
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
# 5 simulated seconds per real second. The AtStartup launcher's first ssh meeting unresolvable
# workers does not depend on it: its pod and theirs are created and started in one round, at
# one simulated instant (tools/kubesim/controllers/simulation.cpp).
KUBESIM_SPEED=5
command -v kubectl >/dev/null 2>&1 || skip_or_fail "kubectl not found"
start_kubesim --default-outcome succeed --default-duration 20s --rendezvous-timeout 30s
kc() { kubectl --kubeconfig "$KCFG" "$@"; }
IMAGE=pytorch/pytorch:2.1.0-cuda12.1-cudnn8-runtime

# submit_ok NAME ARGS...: trainctl submit --wait=finished ends with the job SUCCEEDED.
submit_ok() {
  local name=$1 kind=$2
  shift 2
  OUT=$(tc submit "$kind" --name="$name" --wait=finished --timeout=120s "$@" 2>&1) || fail "$name: $OUT"
  expect_output "$name" "job $name: SUCCEEDED"
}

# trainctl's manifests train: PyTorchJob with plain python (env://) and with torchrun
# (--nproc-per-node: nprocPerNode and PET_*), the same without the operator, MPIJob
# (WaitForWorkersReady), Volcano.
submit_ok pt-python pytorch --workers=3 --gpus=1 --image=$IMAGE "python /root/mnist.py --backend nccl"
submit_ok pt-torchrun pytorch --workers=2 --gpus=2 --nproc-per-node=2 --image=$IMAGE "torchrun /root/train.py"
submit_ok none-python pytorch --operator none --workers=3 --image=$IMAGE "python /root/mnist.py"
submit_ok none-torchrun pytorch --operator none --workers=2 --nproc-per-node=4 --image=$IMAGE \
  "cd /root && torchrun train.py --epochs 2"
submit_ok mpi-ok mpi --workers=2 --gpus=1 --image=$IMAGE "mpirun --allow-run-as-root -np 2 python /root/train.py"
submit_ok vc-ok volcano --image=$IMAGE --task=worker:2 "python /root/train.py"
OUT=$(tc logs pt-torchrun 2>&1) || fail "logs pt-torchrun: $OUT"
expect_output "pt-torchrun logs" "accuracy=0.9904"

# A PyTorchJob with nprocPerNode 4 running a plain python script: WORLD_SIZE counts 8
# processes, 2 pods join; rank 0 waits, then TCPStore's timeout fails the Master.
rc=0; OUT=$(tc submit pytorch --name=np4 --workers=2 --nproc-per-node=4 --image=$IMAGE --wait=finished \
  --timeout=120s "python /root/mnist.py" 2>&1) || rc=$?
[[ $rc == 5 ]] || fail "np4 exited $rc, not 5 (job failed): $OUT"
# It runs (the ranks wait, Running) before it fails; submit --wait reports the failure as its error.
expect_output "np4" "job np4: RUNNING"
expect_output "np4" "error: job np4 failed"
OUT=$(tc logs np4 2>&1) || true
expect_output "np4 logs" "torch.distributed.DistStoreError: Timed out after 31 seconds waiting for clients. 2/8 clients joined."

# An operator-free torchrun --nnodes=2 without a master address (no PET_* variables, no
# Service): every pod is node rank 0 on 127.0.0.1 and waits for a second node that never comes.
cat >"$WORK/bare.yaml" <<'EOF'
apiVersion: batch/v1
kind: Job
metadata:
  name: bare
spec:
  completionMode: Indexed
  completions: 2
  parallelism: 2
  backoffLimit: 0
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: pytorch
        image: pytorch/pytorch:2.1.0-cuda12.1-cudnn8-runtime
        command: ["sh", "-c", "torchrun --nnodes=2 --nproc-per-node=1 train.py"]
EOF
OUT=$(kc apply -f "$WORK/bare.yaml" 2>&1) || fail "apply bare: $OUT"
# An MPIJob launcher created at once (AtStartup) with no retry: its mpirun starts before the
# workers' names resolve, ssh fails, the launcher Job and the MPIJob fail.
cat >"$WORK/early.yaml" <<'EOF'
apiVersion: kubeflow.org/v2beta1
kind: MPIJob
metadata:
  name: early
spec:
  slotsPerWorker: 1
  launcherCreationPolicy: AtStartup
  runPolicy:
    backoffLimit: 0
  mpiReplicaSpecs:
    Launcher:
      replicas: 1
      template:
        spec:
          containers:
          - name: launcher
            image: mpioperator/mpi-pi:openmpi
            command: ["mpirun", "-n", "2", "/home/mpiuser/pi"]
    Worker:
      replicas: 2
      template:
        spec:
          containers:
          - name: worker
            image: mpioperator/mpi-pi:openmpi
EOF
OUT=$(kc apply -f "$WORK/early.yaml" 2>&1) || fail "apply early: $OUT"
bare="" early=""
for _ in $(seq 1 300); do
  bare=$(kc get job.batch bare -o jsonpath='{.status.conditions[?(@.type=="Failed")].reason}')
  early=$(kc get mpijob early -o jsonpath='{.status.conditions[?(@.type=="Failed")].reason}')
  [[ -n "$bare" && -n "$early" ]] && break
  [[ -n "$(kc get mpijob early -o jsonpath='{.status.conditions[?(@.type=="Succeeded")].reason}')" ]] &&
    fail "the AtStartup MPIJob succeeded: its workers were resolvable before the launcher's ssh"
  sleep 0.1
done
[[ "$bare" == BackoffLimitExceeded ]] || fail "the operator-free job did not fail: '$bare' $(kc get pods -o wide 2>&1)"
pod=$(kc get pods -l job-name=bare,batch.kubernetes.io/job-completion-index=0 -o jsonpath='{.items[0].metadata.name}')
OUT=$(kc logs "$pod" 2>&1) || fail "logs $pod: $OUT"
expect_output "bare logs" "torch.distributed.DistStoreError: Timed out after 31 seconds waiting for clients. 1/2 clients joined."
[[ "$early" == BackoffLimitExceeded* ]] || fail "the AtStartup MPIJob did not fail: '$early'"
launcher=$(kc get pods -l job-name=early-launcher -o jsonpath='{.items[0].metadata.name}')
OUT=$(kc logs "$launcher" 2>&1) || fail "logs $launcher: $OUT"
# The first worker that was not resolvable when the launcher ran: either, as the two workers
# become Ready in whichever order the scheduler and kubelets reach them.
grep -qE -- "^ssh: Could not resolve hostname early-worker-[01]\.early\.default\.svc: Name or service not known$" <<<"$OUT" ||
  fail "early launcher: no ssh resolution failure for a worker: $OUT"
expect_output "early launcher" "ORTE was unable to reliably start one or more daemons."
code=$(kc get pod "$launcher" -o jsonpath='{.status.containerStatuses[0].state.terminated.exitCode}')
[[ "$code" == 255 ]] || fail "the launcher exited $code, not 255 as mpirun after a failed ssh"
echo "ok"
