#!/usr/bin/env bash
# submit reads what the cluster can take before it renders: an operator whose CRD lacks a
# field (kubesim --crd-drop-field, as an older release's CRD), a Kubernetes release without
# the completion-index pod label or without Indexed Job hostnames (--kubernetes-version).
# What was created is read back with kubectl.
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
command -v kubectl >/dev/null 2>&1 || skip_or_fail "kubectl not found"
kc() { kubectl --kubeconfig "$KCFG" "$@"; }
stop_kubesim() { kill "$KUBESIM_PID" 2>/dev/null || true; wait "$KUBESIM_PID" 2>/dev/null || true; rm -f "$KCFG"; }

# training-operator before v1.7: no spec.nprocPerNode, no scheduleTimeoutSeconds.
start_kubesim --default-outcome run-forever \
  --crd-drop-field pytorchjobs.kubeflow.org:spec.nprocPerNode \
  --crd-drop-field pytorchjobs.kubeflow.org:spec.runPolicy.schedulingPolicy.scheduleTimeoutSeconds \
  --crd-drop-field mpijobs.kubeflow.org:spec.launcherCreationPolicy
OUT=$(tc submit pytorch --name=old-op --workers=2 --image=pytorch/pytorch --nproc-per-node=4 --gang \
  --schedule-timeout=120s "torchrun train.py" 2>&1) || fail "submit to an older training-operator: $OUT"
expect_output "old operator" "warning: the installed PyTorchJob CRD has no spec.nprocPerNode"
expect_output "old operator" "--schedule-timeout is not sent"
[[ -z "$(kc get pytorchjob old-op -o jsonpath='{.spec.nprocPerNode}')" ]] || fail "spec.nprocPerNode was sent"
env=$(kc get pytorchjob old-op -o jsonpath='{.spec.pytorchReplicaSpecs.Worker.template.spec.containers[0].env[?(@.name=="PET_NPROC_PER_NODE")].value}')
[[ "$env" == "4" ]] || fail "PET_NPROC_PER_NODE in the worker template: '$env'"
OUT=$(tc submit mpi --name=old-mpi --workers=2 --image=mpi --gang "mpirun x" 2>&1) || fail "submit mpi: $OUT"
expect_output "old mpi-operator" "no spec.launcherCreationPolicy"
[[ "$(kc get mpijob old-mpi -o jsonpath='{.spec.runPolicy.schedulingPolicy.minAvailable}')" == 3 ]] ||
  fail "the gang does not count the launcher on an mpi-operator without launcherCreationPolicy"
stop_kubesim

# The current releases take every field: nothing to say.
start_kubesim --default-outcome run-forever
OUT=$(tc submit pytorch --name=new-op --workers=2 --image=pytorch/pytorch --nproc-per-node=4 "torchrun train.py" 2>&1) ||
  fail "submit: $OUT"
if grep -q "warning:" <<<"$OUT"; then fail "a warning for a current operator: $OUT"; fi
[[ "$(kc get pytorchjob new-op -o jsonpath='{.spec.nprocPerNode}')" == 4 ]] || fail "spec.nprocPerNode not sent"
OUT=$(tc submit mpi --name=new-mpi --workers=2 --image=mpi "mpirun x" 2>&1) || fail "submit mpi: $OUT"
[[ "$(kc get mpijob new-mpi -o jsonpath='{.spec.launcherCreationPolicy}')" == WaitForWorkersReady ]] ||
  fail "launcherCreationPolicy not sent"
stop_kubesim

# Kubernetes 1.26: pods carry the legacy job-name label and the completion index only as an
# annotation; list, get and logs still find the pods and the chief.
start_kubesim --default-outcome run-forever --kubernetes-version 1.26
OUT=$(tc submit pytorch --name=k126 --operator none --workers=2 --image=pytorch/pytorch --tensorboard \
  --wait --timeout=60s "python train.py" 2>&1) || fail "operator-free on 1.26: $OUT"
affinity=$(kc get deployment k126-tensorboard -o jsonpath='{.spec.template.spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchLabels}')
[[ "$affinity" == '{"job-name":"k126"}' ]] || fail "TensorBoard affinity on 1.26: $affinity"
[[ -z "$(kc get pods -l batch.kubernetes.io/job-completion-index -o name)" ]] || fail "1.26 pods have the index label"
OUT=$(tc get k126 2>&1) || fail "get on 1.26: $OUT"
grep -Eq '^k126-0-[a-z0-9]+ +Running +[^ ]+ +true' <<<"$OUT" || fail "get does not show index 0 as chief on 1.26: $OUT"
OUT=$(tc logs k126 -t 1 2>&1) || fail "logs on 1.26: $OUT"
stop_kubesim

# Before 1.22 an Indexed Job's pods have no NAME-INDEX hostname: refused, nothing created.
start_kubesim --default-outcome run-forever --kubernetes-version 1.21
rc=0; OUT=$(tc submit pytorch --name=k121 --operator none --workers=2 --image=pytorch/pytorch "python train.py" 2>&1) || rc=$?
[[ $rc == 2 ]] || fail "operator-free on 1.21 exited $rc: $OUT"
expect_output "1.21" "needs Kubernetes 1.22 or later"
[[ -z "$(kc get jobs.batch,services -l release=k121 -o name)" ]] || fail "something was created on 1.21"
echo "ok"
