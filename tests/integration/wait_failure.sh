#!/usr/bin/env bash
# Why a job failed, and `trainctl wait`, against kubesim: an OOM-killed worker (get names it
# with exit 137, OOMKilled, its restarts and log; wait exits 5 with the same in -o json), a pod
# the kubelet evicted, a failed MPIJob launcher, and wait's other outcomes: timeout (6),
# unschedulable (7), deleted while waiting (8), --for=running (0).
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
command -v kubectl >/dev/null 2>&1 || skip_or_fail "kubectl not found"
command -v jq >/dev/null 2>&1 || skip_or_fail "jq not found"
start_kubesim --default-outcome succeed --default-duration 20s
kc() { kubectl --kubeconfig "$KCFG" "$@"; }

# expect_code NAME WANT CMD...: runs CMD (output in $OUT), fails unless it exits WANT.
expect_code() {
  local name=$1 want=$2 rc=0
  shift 2
  OUT=$("$@" 2>&1) || rc=$?
  [[ $rc == "$want" ]] || fail "$name: exit $rc, not $want:
$OUT"
}

# 1. A worker OOM-killed until the backoff limit: the training-operator (v1.9.0
#    pkg/controller.v1/common/job.go PastBackoffLimit) counts the restarts of an OnFailure
#    replica and fails the job; the kubelet restarts the container in place (lastState
#    terminated, OOMKilled, 137 = 128 + SIGKILL).
kc apply -f - >/dev/null <<'YAML'
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: oom-job, namespace: default}
spec:
  runPolicy: {backoffLimit: 2}
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      restartPolicy: OnFailure
      template:
        metadata: {annotations: {kubesim.trainctl.io/outcome: run-forever}}
        spec: {containers: [{name: pytorch, image: pytorch/pytorch, command: [python, train.py]}]}
    Worker:
      replicas: 1
      restartPolicy: OnFailure
      template:
        metadata: {annotations: {kubesim.trainctl.io/outcome: oom, kubesim.trainctl.io/duration: 60s}}
        spec: {containers: [{name: pytorch, image: pytorch/pytorch, command: [python, train.py]}]}
YAML
expect_code "wait oom -o json" 5 tc wait oom-job --timeout=120s -o json
JSON=$(sed -n '/^{/,/^}/p' <<<"$OUT")
[[ $(jq -r .result <<<"$JSON") == failed && $(jq -r .status <<<"$JSON") == FAILED ]] || fail "wait oom: $OUT"
[[ $(jq -r .kind <<<"$JSON") == PyTorchJob && $(jq -r .name <<<"$JSON") == oom-job ]] || fail "wait oom: $OUT"
[[ $(jq -r '.failure | "\(.replica) \(.pod) \(.container) \(.exitCode) \(.reason)"' <<<"$JSON") == \
   "worker-0 oom-job-worker-0 pytorch 137 OOMKilled" ]] || fail "wait oom failure: $OUT"
(($(jq -r .failure.restarts <<<"$JSON") >= 2)) || fail "wait oom restarts: $OUT"
jq -r '.failure.message' <<<"$JSON" | grep -qF "Job oom-job has failed because it has reached the specified backoff limit" ||
  fail "wait oom message: $OUT"
# The log of the OOM-killed attempt (or, once the kubelet has restarted it, of the new one):
# the training log's lines, never the traceback of a Python error (SIGKILL leaves none).
(($(jq '.failure.logTail | length' <<<"$JSON") > 0)) || fail "wait oom log tail: $OUT"
! jq -r '.failure.logTail[]' <<<"$JSON" | grep -q Traceback || fail "wait oom log tail: $OUT"
expect_code "get oom" 0 tc get oom-job
expect_output "get oom" "FAILED"
expect_output "get oom" "Failed: worker-0 exited 137 (OOMKilled) after "
expect_output "get oom" "lines of oom-job-worker-0/pytorch"
grep -qE '^    (WORLD_SIZE|.*step=)' <<<"$OUT" || fail "get oom: no indented log tail:
$OUT"
expect_code "get oom -o json" 0 tc get oom-job -o json
[[ $(jq -r .failure.reason <<<"$OUT") == OOMKilled ]] || fail "get oom -o json: $OUT"
expect_code "wait oom text" 5 tc wait oom-job
expect_output "wait oom text" "Failed: worker-0 exited 137 (OOMKilled)"

# 2. The kubelet evicts the master under memory pressure: phase Failed, reason Evicted and its
#    message (pkg/kubelet/eviction); a Master under Never fails the PyTorchJob.
expect_code "submit evicted" 5 tc submit pytorch --name=evict-job --workers=1 --image=pytorch/pytorch \
  -a kubesim.trainctl.io/outcome=evicted --wait=finished --timeout=60s "python train.py"
expect_output "submit evicted" "Failed: master-0 exited 137 (Evicted)"
expect_output "submit evicted" "The node was low on resource: memory. Threshold quantity: 100Mi"
expect_code "get evicted" 0 tc get evict-job -o json
[[ $(jq -r '.failure | "\(.replica) \(.reason)"' <<<"$OUT") == "master-0 Evicted" ]] || fail "get evicted: $OUT"

# 3. An MPIJob whose launcher fails: the launcher Job (backoffLimit 0) fails, and the MPIJob
#    with it (mpi-operator v0.8.0 updateMPIJobStatus); the launcher pod names the failure.
kc apply -f - >/dev/null <<'YAML'
apiVersion: kubeflow.org/v2beta1
kind: MPIJob
metadata: {name: mpi-fail, namespace: default}
spec:
  slotsPerWorker: 1
  runPolicy: {backoffLimit: 0, cleanPodPolicy: None}
  mpiReplicaSpecs:
    Launcher:
      replicas: 1
      template:
        metadata: {annotations: {kubesim.trainctl.io/outcome: fail}}
        spec: {containers: [{name: launcher, image: mpioperator/mpi-pi, command: [python, pi.py]}]}
    Worker:
      replicas: 2
      template:
        metadata: {annotations: {kubesim.trainctl.io/outcome: run-forever}}
        spec: {containers: [{name: worker, image: mpioperator/mpi-pi}]}
YAML
expect_code "wait mpi" 5 tc wait mpi-fail --timeout=120s
expect_output "wait mpi" "Failed: launcher-"
expect_output "wait mpi" "exited 1 (Error)"
expect_code "get mpi" 0 tc get mpi-fail -o json
[[ $(jq -r '.failure | "\(.container) \(.exitCode) \(.reason)"' <<<"$OUT") == "launcher 1 Error" ]] || fail "get mpi: $OUT"
jq -r '.failure.pod' <<<"$OUT" | grep -q '^mpi-fail-launcher-' || fail "get mpi pod: $OUT"

# 4. Timeout: a job that runs forever does not finish in 2 s.
tc submit pytorch --name=forever --workers=1 --image=pytorch/pytorch -a kubesim.trainctl.io/outcome=run-forever \
  "python train.py" >/dev/null
expect_code "wait timeout" 6 tc wait forever --timeout=2s -o json
[[ $(sed -n '/^{/,/^}/p' <<<"$OUT" | jq -r '"\(.result) \(.failure)"') == "timeout null" ]] || fail "wait timeout: $OUT"

# 5. --for=running: the same job runs.
expect_code "wait running" 0 tc wait forever --for=running --timeout=60s
expect_output "wait running" "The Job forever is running"
expect_code "wait running json" 0 tc wait forever --for=running --timeout=60s -o json
[[ $(jq -r '"\(.result) \(.status)"' <<<"$OUT") == "running RUNNING" ]] || fail "wait running json: $OUT"

# 6. Unschedulable: 16 GPUs per pod, more than any node has (8): the scheduler marks the pod
#    PodScheduled=False, reason Unschedulable.
tc submit pytorch --name=too-big --workers=1 --gpus=16 --image=pytorch/pytorch "python train.py" >/dev/null
expect_code "wait unschedulable" 7 tc wait too-big --for=running --timeout=3s -o json
JSON=$(sed -n '/^{/,/^}/p' <<<"$OUT")
[[ $(jq -r .result <<<"$JSON") == unschedulable ]] || fail "wait unschedulable: $OUT"
expect_output "wait unschedulable" "cannot be scheduled"
expect_output "wait unschedulable" "Insufficient nvidia.com/gpu"

# 7. Deleted while waiting.
tc submit pytorch --name=doomed --workers=1 --image=pytorch/pytorch -a kubesim.trainctl.io/outcome=run-forever \
  "python train.py" >/dev/null
rc=0
tc wait doomed --timeout=60s >"$WORK/doomed.out" 2>&1 &
waiter=$!
sleep 2
tc delete doomed >/dev/null
wait $waiter || rc=$?
[[ $rc == 8 ]] || fail "wait deleted: exit $rc: $(cat "$WORK/doomed.out")"
grep -qF "job doomed was deleted" "$WORK/doomed.out" || fail "wait deleted: $(cat "$WORK/doomed.out")"

# 8. logs -f of a job whose master fails (exit 1, Error): the log, then the root cause on stderr.
tc submit pytorch --name=fail-job --workers=1 --image=pytorch/pytorch -a kubesim.trainctl.io/outcome=fail \
  "python train.py" >/dev/null
expect_code "logs -f failed" 5 tc logs -f fail-job
expect_output "logs -f failed" "RuntimeError: NCCL communicator was aborted on rank 0."
expect_output "logs -f failed" "Failed: master-0 exited 1 (Error)"

# 9. Not found at start.
expect_code "wait missing" 3 tc wait no-such-job --timeout=5s
echo "ok"
