#!/usr/bin/env bash
# trainctl doctor on a cluster that lacks, or has an older release of, one piece after
# another: no TFJob, only the training-operator's MPIJob v1, no Volcano, a PyTorchJob CRD
# without nprocPerNode, Trainer v2.2's runtime CRD, no JobSet, no Kueue, Kubernetes 1.26, no
# whole NVIDIA GPUs but MIG devices of the mixed strategy and ACK shared GPUs, no Prometheus.
# Each finding says so, with the reason and the fix; the real kubectl reads the same cluster.
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
source "$(dirname "$0")/doctor.bash"
KUBECTL=$(command -v kubectl || true)
[[ -n "$KUBECTL" ]] || skip_or_fail "kubectl not found"
k() { "$KUBECTL" --kubeconfig "$KCFG" "$@"; }

cat >"$WORK/nodes.yaml" <<'YAML'
nodes:
  - {name: mig-a, ip: 10.0.0.31, cpu: "64", memory: 512Gi, resources: {nvidia.com/mig-1g.10gb: 7, nvidia.com/mig-3g.40gb: 2}}
  - {name: share-a, ip: 10.0.0.41, cpu: "64", memory: 512Gi, resources: {aliyun.com/gpu-mem: 64, aliyun.com/gpu-count: 4}}
  - {name: cpu-a, ip: 10.0.0.51, cpu: "64", memory: 512Gi}
namespaces: [default]
YAML
KUBESIM_SEED="$WORK/nodes.yaml" start_kubesim --kubernetes-version 1.26 \
  --no-crd tfjobs.kubeflow.org --crd-version mpijobs.kubeflow.org=v1 --no-crd jobs.batch.volcano.sh \
  --crd-drop-field pytorchjobs.kubeflow.org:spec.nprocPerNode \
  --crd-drop-field clustertrainingruntimes.trainer.kubeflow.org:spec.mlPolicy.torch.envInjection \
  --no-crd jobsets.jobset.x-k8s.io --no-crd podgroups.scheduling.volcano.sh --no-crd queues.scheduling.volcano.sh \
  --no-crd clusterqueues.kueue.x-k8s.io --no-crd localqueues.kueue.x-k8s.io --no-crd workloads.kueue.x-k8s.io \
  --no-crd resourceflavors.kueue.x-k8s.io

doctor_json
[[ $DOCTOR_RC == 0 ]] || fail "doctor exited $DOCTOR_RC on a cluster that runs PyTorchJobs: $DOCTOR_ERR"
[[ $(jq -r .ready <<<"$DOC") == true ]] || fail "not ready: $DOC"
[[ $(jq -r .cluster.kubernetesVersion <<<"$DOC") == 1.26 ]] || fail "version: $(jq -c .cluster <<<"$DOC")"

# Job APIs, each against what kubectl reads of the same cluster.
expect_finding api.pytorchjob warning "lacks spec.nprocPerNode"
[[ $(finding api.pytorchjob '.details.fields["spec.nprocPerNode"]') == false ]] || fail "nprocPerNode: $DOC"
[[ $(k get crd pytorchjobs.kubeflow.org -o json |
  jq '.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties | has("nprocPerNode")') == false ]] ||
  fail "kubectl sees spec.nprocPerNode in the CRD"
expect_finding api.tfjob missing "install the training-operator"
# kubectl's output is read whole before grep: grep -q leaves at its match, and under pipefail
# kubectl's next line would then fail the pipeline (SIGPIPE).
KF_RESOURCES=$(k api-resources --api-group=kubeflow.org -o name)
! grep -qx tfjobs.kubeflow.org <<<"$KF_RESOURCES" || fail "kubectl lists tfjobs"
expect_finding api.mpijob missing "only kubeflow.org/v1"
expect_finding api.mpijob missing "install the mpi-operator"
[[ $(k api-versions | grep '^kubeflow.org/' | sort | tr '\n' ' ') == "kubeflow.org/v1 " ]] ||
  fail "kubectl sees kubeflow.org versions: $(k api-versions | grep kubeflow)"
grep -qx mpijobs.kubeflow.org <<<"$KF_RESOURCES" || fail "kubectl lists no v1 mpijobs"
expect_finding api.volcanojob missing "install Volcano"
expect_finding api.batchjob ok "the label came with 1.28"
[[ $(finding api.batchjob .details.completionIndexLabel) == false ]] || fail "1.26 has no completion-index label"
expect_finding api.trainjob ok "Trainer v2.2"
[[ $(finding api.trainjob '.details.fields["spec.mlPolicy.torch.envInjection"]') == false ]] || fail "envInjection: $DOC"
expect_finding api.runtimes missing "install Trainer's default runtimes"
[[ -z $(k get clustertrainingruntimes -o name) ]] || fail "kubectl lists runtimes"
expect_finding api.jobset missing "runs each TrainJob as a JobSet"

# Schedulers and queues: none here.
expect_finding sched.coscheduling info "install scheduler-plugins' coscheduling"
expect_finding sched.volcano info "not installed"
expect_finding sched.kueue info "no kueue.x-k8s.io API"
[[ $(finding kueue.pytorchjob .status) == absent ]] || fail "a Kueue integration finding without Kueue: $DOC"

# GPUs: MIG devices (mixed strategy) and ACK's shared GPUs, no whole NVIDIA GPUs.
expect_finding gpu.nvidia info "no nvidia.com/gpu"
expect_finding gpu.mig ok "nvidia.com/mig-1g.10gb: 7 on 1 node, nvidia.com/mig-3g.40gb: 2 on 1 node"
[[ $(k get node mig-a -o jsonpath='{.status.allocatable.nvidia\.com/mig-1g\.10gb}') == 7 ]] || fail "kubectl: MIG"
expect_finding gpu.ack-share ok "aliyun.com/gpu-mem: 64 GiB on 1 node"
expect_finding gpu.ack-topology info "none"

# No Prometheus Service.
expect_finding metrics.prometheus warning "--prometheus URL"
[[ $(finding metrics.exporter .status) == absent ]] || fail "an exporter finding without Prometheus"

# TrainJobs asked for: Trainer v2.2 is served, but there are no runtimes and no JobSet.
doctor_json -T trainjob
[[ $DOCTOR_RC == 9 ]] || fail "doctor -T trainjob exited $DOCTOR_RC, not 9"
[[ $(jq -r '.notReadyBecause | join(" | ")' <<<"$DOC") == *"Training runtimes: a TrainJob names the runtime it runs on"* ]] ||
  fail "not ready because: $(jq -c .notReadyBecause <<<"$DOC")"
[[ $(jq -r '.notReadyBecause | join(" | ")' <<<"$DOC") == *"JobSet: Trainer runs each TrainJob as a JobSet"* ]] ||
  fail "not ready because: $(jq -c .notReadyBecause <<<"$DOC")"
grep -q "^error: namespace default cannot run TrainJobs: Training runtimes: " <<<"$DOCTOR_ERR" || fail "stderr: $DOCTOR_ERR"

# The kinds that are not there decide the exit code when asked for.
doctor_json -T mpi
[[ $DOCTOR_RC == 9 ]] || fail "doctor -T mpi exited $DOCTOR_RC, not 9"
[[ $(jq -r '.notReadyBecause[0]' <<<"$DOC") == "MPIJob: only kubeflow.org/v1 (the training-operator's own MPIJob)" ]] ||
  fail "not ready because: $(jq -c .notReadyBecause <<<"$DOC")"
grep -qx "error: namespace default cannot run MPIJobs: MPIJob: only kubeflow.org/v1 (the training-operator's own MPIJob)" \
  <<<"$DOCTOR_ERR" || fail "stderr: $DOCTOR_ERR"

# The report for people: aligned words in a pipe, each problem with its why and fix.
OUT=$(tc doctor -T tf 2>/dev/null) && fail "doctor -T tf exited 0"
grep -qE '^  missing  TFJob +not served \(no kubeflow.org/v1 tfjobs\)$' <<<"$OUT" || fail "no TFJob line: $OUT"
grep -qE '^ +why: trainctl submit tf creates TFJob \(kubeflow.org/v1\)$' <<<"$OUT" || fail "no why line: $OUT"
grep -qE '^ +fix: install the training-operator$' <<<"$OUT" || fail "no fix line: $OUT"
grep -q '^Not ready: trainctl submit tf cannot run TFJobs in namespace default:$' <<<"$OUT" || fail "no verdict: $OUT"
! grep -q '[✓✗]' <<<"$OUT" || fail "symbols in a pipe: $OUT"
# On a UTF-8 terminal, symbols (script(1) gives the command a terminal).
if command -v script >/dev/null; then
  TTY=$(LC_ALL=C.UTF-8 NO_COLOR=1 script -qec "'$TRAINCTL' --kubeconfig '$KCFG' doctor" /dev/null) || true
  grep -qE '^  ✗  MPIJob ' <<<"$TTY" || fail "no ✗ on a UTF-8 terminal: $TTY"
  grep -qE '^  ✓  Indexed Job ' <<<"$TTY" || fail "no ✓ on a UTF-8 terminal: $TTY"
  TTY=$(LC_ALL=C NO_COLOR=1 script -qec "'$TRAINCTL' --kubeconfig '$KCFG' doctor" /dev/null) || true
  grep -qE '^  missing  MPIJob ' <<<"$TTY" || fail "symbols on a terminal that is not UTF-8: $TTY"
fi
echo "ok"
