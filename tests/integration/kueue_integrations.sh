#!/usr/bin/env bash
# --kueue-queue on a cluster whose Kueue is configured as v0.19.2 ships (kubesim's default):
# kubeflow.org/pytorchjob and kubeflow.org/tfjob are not among its integrations, so its
# webhook leaves such a job unsuspended and it would start at once, past the queue's quota.
# submit pytorch and submit tf exit 1 with one line naming the cause and what works instead,
# and nothing of the job stays on the cluster (the real kubectl looks). MPIJob and the
# operator-free batch/v1 Job are held by Kueue: created suspended, each with its Workload.
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
source "$(dirname "$0")/kueue_queues.bash"
KUBECTL=$(command -v kubectl || true)
[[ -n "$KUBECTL" ]] || skip_or_fail "kubectl not found"
start_kubesim --default-outcome run-forever
k() { "$KUBECTL" --kubeconfig "$KCFG" "$@"; }

# No GPU quota: whatever Kueue holds stays suspended.
kueue_queues 0

# Every object of the namespace that is job NAME's or one of its own (name NAME or NAME-...).
leftovers() {
  k get pytorchjobs,tfjobs,mpijobs,jobs,pods,services,deployments,configmaps,workloads -o name 2>/dev/null |
    grep -E "/($1|$1-.*)$" || true
}
nothing_left() { [[ -z $(leftovers "$1") ]]; }

for kind in pytorch tf; do
  name=q-$kind
  set +e
  OUT=$(tc submit $kind --name=$name --gpus=1 --workers=2 --image=img --tensorboard --kueue-queue=team-a \
    "python train.py" 2>"$WORK/err")
  rc=$?
  set -e
  ERR=$(cat "$WORK/err")
  [[ $rc == 1 ]] || fail "submit $kind --kueue-queue exited $rc, not 1: $OUT $ERR"
  [[ -z $OUT ]] || fail "submit $kind printed on stdout: $OUT"
  [[ $(wc -l <<<"$ERR") == 1 ]] || fail "submit $kind: not one line on stderr:
$ERR"
  framework=kubeflow.org/${kind}job
  [[ $kind == tf ]] && job_kind=TFJob || job_kind=PyTorchJob
  grep -qF "error: --kueue-queue team-a: Kueue did not suspend $job_kind $name, so it would start at once past the queue's quota: the $framework integration is not enabled in this cluster's Kueue (Kueue v0.19.0 and later ship it disabled); deleted it. Instead, " <<<"$ERR" ||
    fail "submit $kind: the line does not name the cause: $ERR"
  grep -qF "as an MPIJob (trainctl submit mpi) or as a TrainJob, or ask the cluster admin to add $framework to integrations.frameworks in Kueue's configuration" <<<"$ERR" ||
    fail "submit $kind: the line does not say what works instead: $ERR"
  # The job is gone at once; pods its operator made in the moment it existed follow it.
  [[ -z $(k get ${kind}jobs -o name) ]] || fail "the $job_kind is still there: $(k get ${kind}jobs -o yaml)"
  until_ok 30 nothing_left $name || fail "submit $kind left objects behind: $(leftovers $name)"
done

# MPIJob (kubeflow.org/mpijob) and batch/v1 Job (batch/job) are enabled: Kueue holds them.
OUT=$(tc submit mpi --name=q-mpi --gpus=1 --workers=1 --image=img --kueue-queue=team-a "mpirun python train.py" 2>&1) ||
  fail "submit mpi --kueue-queue: $OUT"
expect_output "submit mpi" "The Job q-mpi has been submitted successfully"
[[ $(k get mpijob q-mpi -o jsonpath='{.spec.runPolicy.suspend}') == true ]] || fail "the MPIJob is not suspended"
OUT=$(tc submit pytorch --operator=none --name=q-none --gpus=1 --workers=2 --image=img --kueue-queue=team-a \
  "python train.py" 2>&1) || fail "submit pytorch --operator none --kueue-queue: $OUT"
[[ $(k get job.batch q-none -o jsonpath='{.spec.suspend}') == true ]] || fail "the batch Job is not suspended"
owners() { k get workloads -o jsonpath='{range .items[*]}{.metadata.ownerReferences[0].kind}/{.metadata.ownerReferences[0].name}{"\n"}{end}'; }
until_ok 30 bash -c "[[ \$('$KUBECTL' --kubeconfig '$KCFG' get workloads -o name | wc -l) == 2 ]]" ||
  fail "no Workloads for the queued jobs: $(owners)"
[[ $(owners | sort | tr '\n' ' ') == "Job/q-none MPIJob/q-mpi " ]] || fail "Workloads of: $(owners)"
[[ -z $(k get pods -o name | grep -E 'q-(mpi|none)' || true) ]] || fail "a queued job has pods: $(k get pods -o name)"
echo "kueue_integrations: ok"
