#!/usr/bin/env bash
# Seed 003's PaddlePaddle job as trainctl renders it trains on Volcano's rules: the pservers
# find each other by their task label, the trainers by theirs, and the trainers' completion
# (TaskCompleted -> CompleteJob, volcano's example/integrations/paddlepaddle) completes the
# job while the pservers still run. The manifest is trainctl's own (--dry-run); only the
# simulated outcome of each task's containers is added, as kubesim annotations.
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
command -v kubectl >/dev/null 2>&1 || skip_or_fail "kubectl not found"
command -v jq >/dev/null 2>&1 || skip_or_fail "jq not found"
start_kubesim --default-outcome run-forever
kc() { kubectl --kubeconfig "$KCFG" "$@"; }

tc submit volcano --name=fluid-ctr --image=paddlepaddle/edl-example:ctr \
  "--task=pserver:2:paddlepaddle/edl-example:ctr:TRAINING_ROLE=PSERVER paddle_k8s start_fluid" \
  --task=trainer:2 --cpu=1 --memory=2Gi -e PADDLE_JOB_NAME=fluid-ctr \
  --task-label=pserver:paddle-job-pserver=fluid-ctr --task-label=trainer:paddle-job=fluid-ctr \
  --task-policy=trainer:TaskCompleted=CompleteJob --task-port=30236 \
  --dry-run -o json "TRAINING_ROLE=TRAINER paddle_k8s start_fluid" >"$WORK/job.json" || fail "dry-run"
jq '.items[0] | .spec.tasks[1].template.metadata.annotations["kubesim.trainctl.io/outcome"] = "succeed"
              | .spec.tasks[1].template.metadata.annotations["kubesim.trainctl.io/duration"] = "60s"' \
  "$WORK/job.json" >"$WORK/job-sim.json"
OUT=$(kc create -f "$WORK/job-sim.json" 2>&1) || fail "kubectl create: $OUT"

# The labels paddle_k8s selects on: 2 pservers, 2 trainers.
for _ in $(seq 1 100); do
  ps=$(kc get pods -l paddle-job-pserver=fluid-ctr -o name); tr=$(kc get pods -l paddle-job=fluid-ctr -o name)
  [[ $(wc -w <<<"$ps") == 2 && $(wc -w <<<"$tr") == 2 ]] && break
  sleep 0.2
done
[[ "$ps" == $'pod/fluid-ctr-pserver-0\npod/fluid-ctr-pserver-1' ]] || fail "pserver pods by their label: $ps"
[[ "$tr" == $'pod/fluid-ctr-trainer-0\npod/fluid-ctr-trainer-1' ]] || fail "trainer pods by their label: $tr"
phase=""
for _ in $(seq 1 150); do
  phase=$(kc get jobs.batch.volcano.sh fluid-ctr -o jsonpath='{.status.state.phase}')
  [[ "$phase" == Completed ]] && break
  sleep 0.2
done
[[ "$phase" == Completed ]] || fail "the job is $phase, not Completed: $(kc get pods -o wide 2>&1)"
OUT=$(tc get fluid-ctr 2>&1) || fail "get: $OUT"
grep -Eq '^Status: +SUCCEEDED' <<<"$OUT" || fail "get does not show SUCCEEDED: $OUT"
echo "ok"
