#!/usr/bin/env bash
# trainctl doctor on a cluster that has every piece: the operators, Trainer v2.3 with runtimes
# and JobSet, scheduler-plugins' PodGroups, Volcano, Kueue with a LocalQueue and the PyTorchJob
# integration enabled (not the TFJob one), whole GPUs and ACK topology GPUs, Prometheus with
# dcgm-exporter's series as Prometheus relabels them. The real kubectl judges each finding:
# the versions it discovers, the CRDs and runtimes it reads, the allocatable GPUs, and a
# server-side dry run of the job `submit --dry-run` renders, queued, for Kueue's suspend.
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
source "$(dirname "$0")/doctor.bash"
source "$(dirname "$0")/kueue_queues.bash"
source "$(dirname "$0")/trainjobs.bash"
KUBECTL=$(command -v kubectl || true)
[[ -n "$KUBECTL" ]] || skip_or_fail "kubectl not found"
k() { "$KUBECTL" --kubeconfig "$KCFG" "$@"; }

# The real CRDs, and scheduler-plugins' PodGroup (v0.25 and later: scheduling.x-k8s.io), which
# is not among them: a CRD with its names and an open schema is all discovery needs.
mkdir "$WORK/crds"
ln -s "$SCHEMAS"/crds/*.yaml "$WORK/crds/"
cat >"$WORK/crds/scheduling.x-k8s.io_podgroups.yaml" <<'YAML'
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: podgroups.scheduling.x-k8s.io}
spec:
  group: scheduling.x-k8s.io
  names: {kind: PodGroup, listKind: PodGroupList, plural: podgroups, singular: podgroup, shortNames: [pg]}
  scope: Namespaced
  versions:
  - name: v1alpha1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
YAML
start_kubesim --crds "$WORK/crds" --prometheus dcgm-exported --default-outcome run-forever \
  --kueue-integrations batch/job,kubeflow.org/mpijob,kubeflow.org/pytorchjob,trainer.kubeflow.org/trainjob

kueue_queues 8
{ torch_runtime ClusterTrainingRuntime torch-distributed; echo ---; torch_runtime TrainingRuntime team-torch; } |
  k apply -n default -f - >/dev/null || fail "kubectl apply of the runtimes"
# A job holding a GPU, so that the exporter's series name a pod.
OUT=$(tc submit mpi --name=gpu-job --gpus=1 --workers=1 --image=img --wait "mpirun python train.py" 2>&1) ||
  fail "submit: $OUT"

# The exporter's series name the pod once Prometheus has scraped the GPU held.
for _ in $(seq 100); do
  doctor_json
  [[ $(finding metrics.exporter .details.podLabel) == exported_pod ]] && break
  sleep 0.3
done
[[ $DOCTOR_RC == 0 ]] || fail "doctor exited $DOCTOR_RC: $DOCTOR_ERR"
[[ $(jq -r '[.findings[] | select(.status == "missing")] | length' <<<"$DOC") == 0 ]] ||
  fail "missing pieces on a full cluster: $(jq -c '[.findings[] | select(.status == "missing")]' <<<"$DOC")"
[[ $(jq -r .roundTrips <<<"$DOC") == 2 ]] || fail "round trips: $(jq .roundTrips <<<"$DOC")"

# Job APIs and their versions, as kubectl discovers them.
# (read whole first: grep -q would end the pipe early, and kubectl's SIGPIPE fails it under pipefail)
API_VERSIONS=$(k api-versions) || fail "kubectl api-versions"
for gv in kubeflow.org/v1 kubeflow.org/v2beta1 batch.volcano.sh/v1alpha1 trainer.kubeflow.org/v1alpha1 jobset.x-k8s.io/v1alpha2; do
  grep -qx "$gv" <<<"$API_VERSIONS" || fail "kubectl does not discover $gv"
done
expect_finding api.pytorchjob ok "spec.nprocPerNode, spec.elasticPolicy, spec.runPolicy.schedulingPolicy.scheduleTimeoutSeconds"
expect_finding api.tfjob ok "kubeflow.org/v1"
expect_finding api.mpijob ok "kubeflow.org/v2beta1; CRD fields: spec.launcherCreationPolicy"
expect_finding api.volcanojob ok "batch.volcano.sh/v1alpha1"
expect_finding api.jobset ok
# Trainer v2.3's fields, as kubectl reads the CRDs.
expect_finding api.trainjob ok "API of Trainer v2.3 or later"
[[ $(k get crd trainjobs.trainer.kubeflow.org -o json |
  jq '.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties | has("runtimePatches")') == true ]] ||
  fail "kubectl: no runtimePatches"
[[ $(k get crd clustertrainingruntimes.trainer.kubeflow.org -o json |
  jq '.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.mlPolicy.properties.torch.properties | has("envInjection")') == true ]] ||
  fail "kubectl: no envInjection"
expect_finding api.runtimes ok "ClusterTrainingRuntimes: torch-distributed; TrainingRuntimes in default: team-torch"
[[ $(k get clustertrainingruntimes -o name) == clustertrainingruntime.trainer.kubeflow.org/torch-distributed ]] ||
  fail "kubectl lists runtimes: $(k get clustertrainingruntimes -o name)"
expect_finding submit.pytorchjob ok "admits the PyTorchJob"

# Schedulers and queues.
expect_finding sched.coscheduling ok "scheduling.x-k8s.io/v1alpha1, v0.25 or later"
grep -qx podgroups.scheduling.x-k8s.io <<<"$(k api-resources --api-group=scheduling.x-k8s.io -o name)" ||
  fail "kubectl does not discover the PodGroups"
expect_finding sched.volcano ok "Queues: default, root"
expect_finding sched.kueue ok "LocalQueues in default: team-a"
# Kueue's integrations: a server-side dry run through kubectl of the job submit renders,
# queued, shows the same suspend doctor read.
queued() {
  tc submit "$1" --name=judge --image=img --kueue-queue=team-a --dry-run -o json "true" |
    jq -c 'if .kind == "List" then .items[0] else . end' |
    k create --dry-run=server -f - -o jsonpath='{.spec.runPolicy.suspend}'
}
expect_finding kueue.pytorchjob ok "managed"
[[ $(queued pytorch) == true ]] || fail "kubectl: the queued PyTorchJob is not suspended"
expect_finding kueue.tfjob warning "integration kubeflow.org/tfjob not enabled"
[[ $(queued tf) != true ]] || fail "kubectl: the queued TFJob is suspended"
expect_finding kueue.mpijob ok "managed"
expect_finding kueue.batchjob ok "managed"
expect_finding kueue.trainjob ok "integration trainer.kubeflow.org/trainjob"
queued_trainjob() {
  tc submit trainjob --name=judge --runtime=torch-distributed --kueue-queue=team-a --dry-run -o json "true" |
    jq -c '.items[0]' | k create --dry-run=server -f - -o jsonpath='{.spec.suspend}'
}
[[ $(queued_trainjob) == true ]] || fail "kubectl: the queued TrainJob is not suspended"

# doctor -T trainjob: TrainJobs decide the exit code; their API, runtimes, JobSet, the dry run
# of the TrainJob submit would send, and the permissions submit trainjob needs, as kubectl
# auth can-i answers them.
doctor_json -T trainjob
[[ $DOCTOR_RC == 0 ]] || fail "doctor -T trainjob exited $DOCTOR_RC: $DOCTOR_ERR $(jq -c .notReadyBecause <<<"$DOC")"
expect_finding submit.trainjob ok "admits the TrainJob"
expect_finding perm.trainjobs.trainer.kubeflow.org ok "create, list, delete: allowed"
expect_finding perm.trainingruntimes.trainer.kubeflow.org ok "get, list, create: allowed"
expect_finding perm.clustertrainingruntimes.trainer.kubeflow.org ok "get, list: allowed"
[[ $(k auth can-i create trainingruntimes.trainer.kubeflow.org) == yes ]] || fail "kubectl: create trainingruntimes"
# Without the runtime the TrainJob names, the API server's admission refuses the dry run.
k delete clustertrainingruntime torch-distributed >/dev/null
doctor_json -T trainjob
[[ $DOCTOR_RC == 9 ]] || fail "doctor -T trainjob without torch-distributed exited $DOCTOR_RC"
expect_finding submit.trainjob missing "torch-distributed"
OUT=$(tc submit trainjob --name=judge --runtime=torch-distributed --dry-run -o json "true" |
  jq -c '.items[0]' | k create --dry-run=server -f - 2>&1) && fail "kubectl: the TrainJob was admitted without its runtime"
grep -q "torch-distributed" <<<"$OUT" || fail "kubectl's refusal: $OUT"

# GPUs: the sums kubectl reads.
nvidia=$(k get nodes -o json | jq '[.items[].status.allocatable["nvidia.com/gpu"] // "0" | tonumber] | add')
expect_finding gpu.nvidia ok "nvidia.com/gpu: $nvidia on 2 nodes (of 3)"
expect_finding gpu.ack-topology ok "aliyun.com/gpu: 8 on 1 node"
expect_finding gpu.mig info
expect_finding gpu.ack-share info

# Prometheus and dcgm-exporter, pods in exported_pod (honor_labels: false).
expect_finding metrics.prometheus ok "monitoring/prometheus-server:9090"
expect_finding metrics.exporter ok "dcgm-exporter: 24 GPUs on 3 nodes; pods in label exported_pod"
series=$(k get --raw '/api/v1/namespaces/monitoring/services/prometheus-server:9090/proxy/api/v1/query?query=DCGM_FI_DEV_GPU_UTIL' |
  jq '.data.result | length')
[[ $series == 24 ]] || fail "kubectl reads $series utilisation series"

# -o yaml is the same document.
[[ $(tc doctor -o yaml | python3 -c 'import json,sys,yaml; print(json.dumps(sorted(yaml.safe_load(sys.stdin)["findings"][0])))') == \
   '["details", "fix", "id", "name", "reason", "result", "section", "status"]' ]] || fail "doctor -o yaml"
echo "ok"
