#!/usr/bin/env bash
# submit tf on kubesim's training-operator: a PS, two GPU workers and a chief run to
# SUCCEEDED under --wait=finished; logs follows the chief; --dry-run needs no cluster; a
# TFJob with a worker that cannot be scheduled waits as TensorFlow does.
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"

OUT=$(KUBECONFIG=/nonexistent/kubeconfig HOME="$WORK" TRAINCTL_CONFIG= "$TRAINCTL" submit tfjob --name=dry \
  --image=tensorflow/tensorflow:2.15.0 --ps=1 --chief --dry-run "python train.py" 2>&1) ||
  fail "dry-run without a cluster: $OUT"
expect_output "dry-run" "kind: TFJob"
expect_output "dry-run" "name: tensorflow"
expect_output "dry-run" "name: tfjob-port"

start_kubesim --default-outcome succeed --default-duration 1m

OUT=$(tc submit tf --name=tf-dist --ps=1 --workers=2 --chief --gpus=1 --image=tensorflow/tensorflow:2.15.0-gpu \
  --wait=finished --timeout=120s "python train.py" 2>&1) || fail "submit tf: $OUT"
expect_output "submit tf" "The Job tf-dist has been submitted successfully"
expect_output "submit tf" "--type tfjob -n default"
expect_output "submit tf" "job tf-dist: SUCCEEDED"
expect_output "submit tf" "The Job tf-dist has succeeded"

OUT=$(tc get tf-dist 2>&1) || fail "get tf-dist: $OUT"
expect_output "get tf-dist" "TFJOB"
expect_output "get tf-dist" "SUCCEEDED"
OUT=$(tc logs tf-dist 2>&1) || fail "logs tf-dist: $OUT"
if command -v kubectl >/dev/null 2>&1; then
  [[ "$OUT" == "$(kubectl --kubeconfig "$KCFG" logs tf-dist-chief-0)" ]] || fail "logs tf-dist is not the chief's log: $OUT"
  tf_config=$(kubectl --kubeconfig "$KCFG" get pod tf-dist-worker-1 -o jsonpath='{.spec.containers[0].env[?(@.name=="TF_CONFIG")].value}')
  grep -qF '"ps":["tf-dist-ps-0.default.svc:2222"]' <<<"$tf_config" || fail "worker 1's TF_CONFIG: $tf_config"
fi
[[ -n "$OUT" ]] || fail "logs tf-dist printed nothing"

# The distributed contract: three workers of 8 GPUs each where the cluster has 16 GPUs. Two
# run and wait for the third as TensorFlow does: nothing trains (the job shows PENDING), and
# worker 0 logs what it waits for every 10 simulated seconds, with no timeout.
OUT=$(tc submit tf --name=tf-wide --workers=3 --gpus=8 --image=tensorflow/tensorflow:2.15.0-gpu \
  "python train.py" 2>&1) || fail "submit tf-wide: $OUT"
wait_line="CreateSession still waiting for response from worker: /job:worker/replica:0/task:2"
for _ in $(seq 100); do
  OUT=$(tc logs tf-wide -i tf-wide-worker-0 2>&1) || true  # ContainerCreating at first
  [[ $(grep -cF -- "$wait_line" <<<"$OUT") -ge 2 ]] && break
  sleep 0.1
done
expect_output "logs tf-wide worker 0" "$wait_line"
[[ $(grep -cvF -- "$wait_line" <<<"$OUT") -eq 0 ]] || fail "tf-wide worker 0 trains without worker 2: $OUT"
OUT=$(tc get tf-wide 2>&1) || fail "get tf-wide: $OUT"
expect_output "get tf-wide" "PENDING"  # Arena: RUNNING with a Pending pod shows PENDING
expect_output "get tf-wide" "Pending"
echo "ok"
