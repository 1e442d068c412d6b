#!/usr/bin/env bash
# Seed 000 and seed 002 command lines (trainctl in place of arena) against kubesim: the jobs
# are created with their dependents and reach Running; a taken name is refused.
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
start_kubesim --default-outcome run-forever

OUT=$(tc submit pytorch --wait --timeout=60s "${SEED000_PYTORCH[@]}" 2>&1) ||
  fail "seed 000 submit: $OUT"
expect_output "seed 000" "The Job pytorch-dist has been submitted successfully"
expect_output "seed 000" 'You can run `trainctl get pytorch-dist --type pytorchjob -n default` to check the job status'
expect_output "seed 000" "job pytorch-dist: 3/3 pods running"
expect_output "seed 000" "The Job pytorch-dist is running"
if command -v kubectl >/dev/null 2>&1; then
  for obj in deployment/pytorch-dist-tensorboard service/pytorch-dist-tensorboard; do
    owner=$(kubectl --kubeconfig "$KCFG" get "$obj" -o jsonpath='{.metadata.ownerReferences[0].kind}/{.metadata.ownerReferences[0].name}')
    [[ "$owner" == "PyTorchJob/pytorch-dist" ]] || fail "$obj owner: $owner"
  done
fi

# The private-repository variant of seed 000 (`arena --loglevel info submit pytorch ...`).
OUT=$(tc --loglevel info submit pytorch --name=pytorch-git \
  --image=registry.cn-beijing.aliyuncs.com/ai-samples/pytorch-with-tensorboard:1.5.1-cuda10.1-cudnn7-runtime \
  --sync-mode=git --sync-source=https://code.aliyun.com/370272561/mnist-pytorch.git \
  --env=GIT_SYNC_USERNAME=yourname --env=GIT_SYNC_PASSWORD=yourpwd \
  "python /root/code/mnist-pytorch/mnist.py --backend gloo" 2>&1) || fail "seed 000 private repo: $OUT"
expect_output "seed 000 private repo" "The Job pytorch-git has been submitted successfully"

# The same name again: refused, exit 1, nothing else created.
set +e
OUT=$(tc submit pytorch --name=pytorch-dist --image=busybox --tensorboard "true" 2>&1)
rc=$?
set -e
[[ $rc -eq 1 ]] || fail "resubmit exit code $rc: $OUT"
expect_output "resubmit" "job pytorch-dist already exists in namespace default"

# Seed 002 without the training-operator: Indexed Job + headless Service.
OUT=$(tc -n team-a submit pytorch --name=ddp --operator none --workers=2 --gpus=1 --image=pytorch/pytorch \
  -e NCCL_DEBUG=INFO --wait --timeout=60s "python mnist.py" 2>&1) || fail "seed 002: $OUT"
expect_output "seed 002" "job ddp: 2/2 pods running"
expect_output "seed 002" "--type pytorchjob -n team-a"
echo "ok"
