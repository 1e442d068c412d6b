#!/usr/bin/env bash
# The real kubectl binaries read kubesim's CustomResourceDefinitions: `kubectl get crd`,
# `kubectl get crd pytorchjobs.kubeflow.org -o yaml`, a CRD emulating an older operator
# (--crd-drop-field) that rejects the dropped field under kubectl's strict field validation,
# and the release /version answers (--kubernetes-version). Exit 77 (skipped) without kubectl,
# kubesim or the schemas.
set -u
source "$(dirname "$0")/skip.bash"
source "$(dirname "$0")/kubesim_start.bash"

KUBECTL_PATH=$(command -v kubectl || true)
if [ -z "$KUBECTL_PATH" ]; then skip_or_fail "kubectl not found"; fi
if [ -z "${KUBESIM:-}" ] || [ ! -x "$KUBESIM" ]; then skip_or_fail "\$KUBESIM is not set"; fi
KDIR=$(dirname "$(readlink -f "$KUBECTL_PATH")")
VERSIONS=()
for k in kubectl kubectl.1.27 kubectl.1.33; do [ -x "$KDIR/$k" ] && VERSIONS+=("$k"); done

SCHEMAS=$(schema_dir)
if [ -z "$SCHEMAS" ]; then skip_or_fail "no Kubernetes schemas"; fi

WORK=$(mktemp -d)
KC="$WORK/kubeconfig"
export KUBECONFIG="$KC"
FAILS=0
SIM_PID=""
cleanup() {
  [ -n "$SIM_PID" ] && kill "$SIM_PID" 2>/dev/null && wait "$SIM_PID" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT

# expect NAME EXPECTED-SUBSTRING OUTPUT (whitespace runs squeezed)
expect() {
  local squeezed
  squeezed=$(printf '%s' "$3" | tr -s ' \t' ' ')
  if [[ "$squeezed" != *"$2"* ]]; then
    echo "FAIL [$1]: expected '$2', got: $(printf '%s' "$3" | head -c 600)"
    FAILS=$((FAILS + 1))
  fi
}

start() {  # start KUBESIM-FLAGS...
  [ -n "$SIM_PID" ] && kill "$SIM_PID" 2>/dev/null && wait "$SIM_PID" 2>/dev/null
  rm -f "$KC" "$WORK/kubesim.log"  # an old "listening" line must not end the wait below
  "$KUBESIM" --port 0 --kubeconfig-out "$KC" --no-controllers "$@" > "$WORK/kubesim.log" 2>&1 &
  SIM_PID=$!
  wait_for_kubesim "$WORK/kubesim.log" "$SIM_PID" && return 0
  echo "kubesim did not start:"; cat "$WORK/kubesim.log"; exit 1
}

cat > "$WORK/pt.yaml" <<'EOF'
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata:
  name: nproc
spec:
  nprocPerNode: "2"
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      template:
        spec:
          containers:
          - name: pytorch
            image: pytorch/pytorch:2.1.0-cuda12.1-cudnn8-runtime
EOF

# ---- the real CRDs from --schemas, an older PyTorchJob CRD, Kubernetes 1.26 ----
start --schemas "$SCHEMAS" --crd-drop-field pytorchjobs.kubeflow.org:spec.nprocPerNode --kubernetes-version 1.26
for k in "${VERSIONS[@]}"; do
  K="$KDIR/$k"
  out=$("$K" get crd 2>&1)
  expect "$k get crd header" "NAME CREATED AT" "$out"
  for crd in pytorchjobs.kubeflow.org tfjobs.kubeflow.org mpijobs.kubeflow.org jobs.batch.volcano.sh \
    podgroups.scheduling.volcano.sh queues.scheduling.volcano.sh clusterqueues.kueue.x-k8s.io \
    localqueues.kueue.x-k8s.io workloads.kueue.x-k8s.io resourceflavors.kueue.x-k8s.io \
    trainjobs.trainer.kubeflow.org trainingruntimes.trainer.kubeflow.org \
    clustertrainingruntimes.trainer.kubeflow.org jobsets.jobset.x-k8s.io; do
    expect "$k get crd $crd" "$crd " "$out"
  done
  out=$("$K" get crd pytorchjobs.kubeflow.org -o yaml 2>&1)
  expect "$k -o yaml kind" "kind: CustomResourceDefinition" "$out"
  expect "$k -o yaml group" "group: kubeflow.org" "$out"
  expect "$k -o yaml established" "type: Established" "$out"
  expect "$k -o yaml field kept" "pytorchReplicaSpecs:" "$out"
  if [[ "$out" == *"nprocPerNode:"* ]]; then echo "FAIL [$k -o yaml]: the dropped field is still served"; FAILS=$((FAILS + 1)); fi
  out=$("$K" get crd mpijobs.kubeflow.org -o jsonpath='{.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.launcherCreationPolicy.type}' 2>&1)
  expect "$k jsonpath launcherCreationPolicy" "string" "$out"
  out=$("$K" create -f "$WORK/pt.yaml" 2>&1)
  expect "$k strict create" 'strict decoding error: unknown field "spec.nprocPerNode"' "$out"
  out=$("$K" version -o json 2>&1)
  expect "$k server version" '"gitVersion": "v1.26.0"' "$out"
done

# ---- the built-in custom resources (no --schemas) ----
start
out=$("$KDIR/kubectl" get crd pytorchjobs.kubeflow.org -o yaml 2>&1)
expect "builtin -o yaml nprocPerNode" "nprocPerNode:" "$out"
expect "builtin -o yaml acceptedNames" "acceptedNames:" "$out"
out=$("$KDIR/kubectl" create -f "$WORK/pt.yaml" 2>&1)
expect "builtin create" "pytorchjob.kubeflow.org/nproc created" "$out"
out=$("$KDIR/kubectl" get crd trainjobs.trainer.kubeflow.org -o jsonpath='{.spec.scope} {.spec.versions[0].name} {.spec.versions[0].subresources}' 2>&1)
expect "builtin TrainJob CRD" 'Namespaced v1alpha1 {"status":{}}' "$out"
out=$("$KDIR/kubectl" get crd clustertrainingruntimes.trainer.kubeflow.org -o jsonpath='{.spec.scope}' 2>&1)
expect "builtin ClusterTrainingRuntime CRD" "Cluster" "$out"
out=$("$KDIR/kubectl" get crd jobsets.jobset.x-k8s.io -o jsonpath='{.spec.versions[0].name}' 2>&1)
expect "builtin JobSet CRD" "v1alpha2" "$out"

if [ "$FAILS" -gt 0 ]; then echo "$FAILS check(s) failed"; exit 1; fi
echo "kubectl_crd: ${#VERSIONS[@]} kubectl version(s) passed"
