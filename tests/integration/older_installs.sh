#!/usr/bin/env bash
# Older installs that docs/operators.md says trainctl covers, as kubesim imitates them:
# PyTorchJob pods labelled by training-operator v1.3 (kubeflow/common v0.3.7: group-name,
# job-name, replica-type, replica-index) and by the standalone pytorch-operator v0.7 (and
# Arena's build of it: pytorch-job-name, pytorch-replica-type, pytorch-replica-index), and
# v1.4's both label sets (--kubeflow-pod-labels); submit --wait follows their pods; get, list,
# logs, logs --all and top job find their instances, the master as chief. And dcgm-exporter before 3.1.6, whose Hostname
# label is its own pod's name (--prometheus dcgm-before-3.1.6): top node still puts each GPU on
# its node. kubectl judges that the pods and series really are labelled the old way.
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
command -v kubectl >/dev/null || skip_or_fail "kubectl not found"
kc() { kubectl --kubeconfig "$KCFG" "$@"; }

for release in v1.3 pytorch-operator-v0.7 v1.4; do
  start_kubesim --kubeflow-pod-labels "$release" --default-outcome run-forever --prometheus dcgm
  # --wait follows the pods by the labels trainctl renders, which every release copies.
  OUT=$(tc submit pytorch --name=old --gpus=1 --workers=3 --image=pytorch/pytorch:1.5 --wait --timeout=60s \
    "python train.py" 2>&1) || fail "submit --wait ($release): $OUT"
  expect_output "submit --wait ($release)" "3/3 pods running"
  for _ in $(seq 200); do
    [[ $(kc get pods -o name | wc -l) -eq 3 ]] && [[ -z $(kc get pods --field-selector=status.phase!=Running -o name) ]] &&
      break
    sleep 0.1
  done
  # The judge: the pods carry the release's labels, and only v1.4's the current ones.
  case $release in
    v1.3) old_selector="group-name=kubeflow.org,job-name=old,replica-type=master,replica-index=0" ;;
    pytorch-operator-v0.7) old_selector="pytorch-job-name=old,pytorch-replica-type=master,pytorch-replica-index=0" ;;
    v1.4) old_selector="group-name=kubeflow.org,job-name=old,replica-type=master" ;;
  esac
  [[ $(kc get pods -l "$old_selector" -o name) == pod/old-master-0 ]] || fail "$release: no pod labelled $old_selector"
  current=$(kc get pods -l training.kubeflow.org/job-name=old -o name | wc -l)
  if [[ $release == v1.4 ]]; then [[ $current -eq 3 ]]; else [[ $current -eq 0 ]]; fi ||
    fail "$release: $current pods have the current job-name label"

  OUT=$(tc get old 2>&1) || fail "get ($release): $OUT"
  for pod in old-master-0 old-worker-0 old-worker-1; do expect_output "get ($release)" "$pod"; done
  grep -Eq '^old-master-0 +Running +[^ ]+ +true ' <<<"$OUT" || fail "get ($release): old-master-0 is not the chief: $OUT"
  [[ $(grep -cE '^old-worker-[01] +Running +[^ ]+ +false ' <<<"$OUT") -eq 2 ]] || fail "get ($release): workers: $OUT"
  OUT=$(tc list 2>&1) || fail "list ($release): $OUT"
  grep -Eq '^old +RUNNING +PYTORCHJOB +[^ ]+ +3 +3 ' <<<"$OUT" || fail "list ($release): $OUT"
  OUT=$(tc logs old 2>&1) || fail "logs ($release): $OUT"
  expect_output "logs ($release)" "CURRENT_RANK: 0"
  OUT=$(tc logs --all old 2>&1) || fail "logs --all ($release): $OUT"
  for r in master-0 worker-0 worker-1; do
    grep -Eq "^\[$r\] +WORLD_SIZE: 3" <<<"$OUT" || fail "logs --all ($release) lacks $r: $OUT"
  done
  OUT=$(tc top job old 2>&1) || fail "top job ($release): $OUT"
  [[ $(grep -cE '^old-(master|worker)-[01] +Running +1 ' <<<"$OUT") -eq 3 ]] || fail "top job ($release): $OUT"
done

# dcgm-exporter before 3.1.6: Hostname is the exporter pod's name.
start_kubesim --prometheus dcgm-before-3.1.6 --default-outcome run-forever
OUT=$(tc submit pytorch --name=busy --gpus=2 --image=pytorch/pytorch:2.3 "python train.py" 2>&1) || fail "submit busy: $OUT"
node=""
for _ in $(seq 200); do
  node=$(kc get pod busy-master-0 -o jsonpath='{.spec.nodeName}' 2>/dev/null || true)
  [[ -n $node && $(kc get pod busy-master-0 -o jsonpath='{.status.phase}') == Running ]] && break
  sleep 0.1
done
exporter=$(kc get pods -n gpu-operator -l app=nvidia-dcgm-exporter --field-selector "spec.nodeName=$node" -o name)
[[ -n $exporter ]] || fail "no exporter pod on $node"
# The judge: Prometheus' series name the exporter pod, not the node.
series=$(kc get --raw "/api/v1/namespaces/monitoring/services/prometheus-server:9090/proxy/api/v1/query?query=DCGM_FI_DEV_GPU_UTIL")
python3 - "$series" "${exporter#pod/}" "$node" <<'PY' || fail "the series are not labelled as dcgm-exporter 3.1.5 labels them: $series"
import json, sys
result = json.loads(sys.argv[1])["data"]["result"]
hosts = {r["metric"].get("Hostname") for r in result}
assert sys.argv[2] in hosts and sys.argv[3] not in hosts, hosts
PY
for _ in $(seq 100); do
  OUT=$(tc top node -d "$node" 2>&1) || fail "top node -d $node: $OUT"
  grep -Eq '[0-9]+\.[0-9]%' <<<"$OUT" && break
  sleep 0.2
done
grep -Eq '(7[0-9]|8[0-9]|9[0-9])\.[0-9]%' <<<"$OUT" || fail "top node -d $node shows no utilisation of its GPUs: $OUT"
OUT=$(tc top node 2>&1) || fail "top node: $OUT"
# Two of the node's eight GPUs busy (70-99 %): its average is above 17 %.
grep -Eq "^$node .* (1[7-9]|2[0-5])\.[0-9]% " <<<"$OUT" || fail "top node: no utilisation on $node: $OUT"
echo "ok"
