#!/usr/bin/env bash
# What trainctl creates beside a job is owned, not controlled, by it, and `delete` removes it
# even when the ownerReference was lost (an operator that released the object): read back
# with the real kubectl, as an independent client.
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
command -v kubectl >/dev/null 2>&1 || skip_or_fail "no kubectl"
start_kubesim --default-outcome run-forever
kc() { kubectl --kubeconfig "$KCFG" "$@"; }

printf 'lr: 0.1\n' >"$WORK/train.yaml"
OUT=$(tc submit pytorch --name=orphans --workers=2 --image=pytorch/pytorch --tensorboard \
  --config-file "$WORK/train.yaml:/etc/train/train.yaml" "python train.py" 2>&1) || fail "submit: $OUT"

for obj in deployment/orphans-tensorboard service/orphans-tensorboard; do
  refs=$(kc get "$obj" -o jsonpath='{.metadata.ownerReferences[0].kind}/{.metadata.ownerReferences[0].name} controller={.metadata.ownerReferences[0].controller}')
  [[ "$refs" == "PyTorchJob/orphans controller=false" ]] || fail "$obj ownerReference: $refs"
done
configmaps=$(kc get configmaps -l release=orphans,app.kubernetes.io/managed-by=trainctl -o name)
[[ -n "$configmaps" ]] || fail "no --config-file ConfigMap"

# As an operator releasing an object would: the Service loses its ownerReference.
kc patch service orphans-tensorboard --type=merge -p '{"metadata":{"ownerReferences":null}}' >/dev/null
[[ -z "$(kc get service orphans-tensorboard -o jsonpath='{.metadata.ownerReferences}')" ]] ||
  fail "the patch left an ownerReference"

# A Service of the same labels owned by another object stays.
kc create configmap keeper >/dev/null
keeper_uid=$(kc get configmap keeper -o jsonpath='{.metadata.uid}')
kc apply -f - >/dev/null <<YAML
apiVersion: v1
kind: Service
metadata:
  name: orphans-other
  namespace: default
  labels: {app: pytorchjob, release: orphans, app.kubernetes.io/managed-by: trainctl}
  ownerReferences:
  - {apiVersion: v1, kind: ConfigMap, name: keeper, uid: "$keeper_uid"}
spec:
  ports: [{port: 80}]
YAML

OUT=$(tc delete orphans 2>&1) || fail "delete: $OUT"
# The job is deleted in the foreground: kube-apiserver keeps it (deletionTimestamp, finalizer
# foregroundDeletion) until its running pods have stopped, and delete says so.
expect_output "delete" "The training job orphans is being deleted: TERMINATING until its pods have stopped"

# Deletion may take a moment (garbage collection, graceful deletion): wait as a client must.
left=""
for _ in $(seq 1 100); do
  left=$(kc get services,deployments,configmaps -l release=orphans,app.kubernetes.io/managed-by=trainctl -o name)
  [[ "$left" == "service/orphans-other" ]] && break
  sleep 0.2
done
[[ "$left" == "service/orphans-other" ]] || fail "left after delete: $left"
# The job itself goes once the garbage collector has seen its pods gone.
job_left=""
for _ in $(seq 1 150); do
  job_left=$(kc get pytorchjobs,pods -o name 2>&1 | grep orphans || true)
  [[ -z "$job_left" ]] && break
  sleep 0.2
done
[[ -z "$job_left" ]] || fail "the job or its pods stayed after delete: $job_left"
echo "ok"
