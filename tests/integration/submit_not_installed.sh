#!/usr/bin/env bash
# A cluster without the training-operator's CRDs (and without Kubeflow Trainer v2's TrainJob, else
# submit pytorch makes a TrainJob: submit_trainjob.sh): submit pytorch and submit tf say so and
# how to proceed, and --operator none still works there.
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
start_kubesim --no-crd pytorchjobs.kubeflow.org --no-crd tfjobs.kubeflow.org --no-crd trainjobs.trainer.kubeflow.org \
  --default-outcome run-forever

set +e
OUT=$(tc submit pytorch --name=nope --image=busybox --tensorboard "true" 2>&1)
rc=$?
set -e
[[ $rc -eq 1 ]] || fail "exit code $rc: $OUT"
expect_output "not installed" "PyTorchJob (kubeflow.org/v1) is not installed on this cluster: install the training-operator, or use --operator none"

set +e
OUT=$(tc submit tf --name=nope-tf --image=tensorflow/tensorflow:2.15.0 --ps=1 "python train.py" 2>&1)
rc=$?
set -e
[[ $rc -eq 1 ]] || fail "submit tf: exit code $rc: $OUT"
expect_output "tf not installed" "TFJob (kubeflow.org/v1) is not installed on this cluster: install the training-operator"
[[ $(wc -l <<<"$OUT") -eq 1 ]] || fail "submit tf: more than one line: $OUT"

OUT=$(tc submit pytorch --name=fallback --operator none --image=busybox --wait --timeout=60s "true" 2>&1) ||
  fail "--operator none: $OUT"
expect_output "--operator none" "job fallback: 1/1 pods running"
echo "ok"
