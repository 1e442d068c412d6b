#!/usr/bin/env bash
# trainctl suspend / resume on kubesim, the real kubectl judging, one job of each kind:
#  - PyTorchJob, TFJob, MPIJob: spec.runPolicy.suspend true, the Suspended condition True, no
#    pod of the job left (MPIJob: the launcher Job suspended too); resumed: false, Suspended
#    False, the pods running again;
#  - the operator-free batch/v1 Job: spec.suspend;
#  - Volcano Job: the AbortJob / ResumeJob Command vcctl job suspend/resume create, taken and
#    deleted by the job controller; the job Aborted without pods, then Running again;
#  - a second suspend (resume) says so and exits 0;
#  - a PyTorchJob CRD without spec.runPolicy.suspend (an older training-operator): refused,
#    exit 2, one line, the job unchanged;
#  - a job in a Kueue queue: refused, exit 2, one line naming its Workload; still suspended;
#  - a TrainJob created with kubectl (-T trainjob): spec.suspend, its JobSet's pods go and come
#    back (kubesim --operators trainer,jobset --runtimes).
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
source "$(dirname "$0")/kueue_queues.bash"
KUBECTL=$(command -v kubectl || true)
[[ -n "$KUBECTL" ]] || skip_or_fail "kubectl not found"
start_kubesim --default-outcome run-forever
k() { "$KUBECTL" --kubeconfig "$KCFG" "$@"; }
# running SELECTOR N: N pods of SELECTOR are Running (kubectl's count).
running() { [[ $(k get pods -l "$1" --field-selector=status.phase=Running -o name | wc -l) == "$2" ]]; }
# none SELECTOR: no pod of SELECTOR at all.
none() { [[ -z $(k get pods -l "$1" -o name) ]]; }
export -f running none k
export KUBECTL KCFG

# check_kind NAME RESOURCE FIELD SELECTOR PODS: suspend and resume job NAME, judged by kubectl.
check_kind() {
  local name=$1 res=$2 field=$3 sel=$4 pods=$5
  until_ok 60 running "$sel" "$pods" || fail "$name: $pods pods not running: $(k get pods -l "$sel")"
  OUT=$(tc suspend "$name" 2>&1) || fail "suspend $name: $OUT"
  expect_output "suspend $name" "The training job $name is being suspended"
  [[ $(k get "$res" "$name" -o jsonpath="{$field}") == true ]] || fail "$name: $field is not true"
  until_ok 60 none "$sel" || fail "$name: pods left after suspend: $(k get pods -l "$sel")"
  OUT=$(tc list 2>&1)
  grep -E "^$name +SUSPENDED " <<<"$OUT" >/dev/null || fail "list does not show $name SUSPENDED: $OUT"
  OUT=$(tc suspend "$name" 2>&1) || fail "second suspend $name: $OUT"
  [[ "$OUT" == "The training job $name is already suspended" ]] || fail "second suspend $name: $OUT"
  OUT=$(tc resume "$name" 2>&1) || fail "resume $name: $OUT"
  expect_output "resume $name" "The training job $name is being resumed"
  [[ $(k get "$res" "$name" -o jsonpath="{$field}") == false ]] || fail "$name: $field is not false"
  until_ok 60 running "$sel" "$pods" || fail "$name: pods not back: $(k get pods -l "$sel")"
  OUT=$(tc resume "$name" 2>&1) || fail "second resume $name: $OUT"
  [[ "$OUT" == "The training job $name is already running (not suspended)" ]] || fail "second resume $name: $OUT"
}

# ---- PyTorchJob, TFJob ----
tc submit pytorch --name=s-py --gpus=1 --workers=2 --image=img "python train.py" >/dev/null
check_kind s-py pytorchjob .spec.runPolicy.suspend training.kubeflow.org/job-name=s-py 2
OUT=$(k get pytorchjob s-py -o jsonpath='{.status.conditions[?(@.type=="Suspended")].status}/{.status.conditions[?(@.type=="Suspended")].reason}')
[[ "$OUT" == "False/PyTorchJobResumed" ]] || fail "s-py Suspended condition after resume: $OUT"
tc submit tf --name=s-tf --workers=2 --image=img "python train.py" >/dev/null
check_kind s-tf tfjob .spec.runPolicy.suspend training.kubeflow.org/job-name=s-tf 2

# ---- MPIJob: the workers and the launcher Job's pod ----
tc submit mpi --name=s-mpi --gpus=1 --workers=2 --image=img "mpirun python train.py" >/dev/null
until_ok 60 running training.kubeflow.org/job-name=s-mpi 3 || fail "s-mpi not running: $(k get pods)"
OUT=$(tc suspend s-mpi 2>&1) || fail "suspend s-mpi: $OUT"
[[ $(k get mpijob s-mpi -o jsonpath='{.spec.runPolicy.suspend}') == true ]] || fail "s-mpi not suspended"
until_ok 60 bash -c "[[ \$(k get job.batch s-mpi-launcher -o jsonpath='{.spec.suspend}') == true ]]" ||
  fail "the launcher Job is not suspended"
until_ok 60 none training.kubeflow.org/job-name=s-mpi || fail "s-mpi pods left: $(k get pods)"
OUT=$(k get mpijob s-mpi -o jsonpath='{.status.conditions[?(@.type=="Suspended")].reason}/{.status.conditions[?(@.type=="Suspended")].message}')
[[ "$OUT" == "MPIJobSuspended/MPIJob suspended" ]] || fail "s-mpi Suspended condition: $OUT"
OUT=$(tc resume s-mpi 2>&1) || fail "resume s-mpi: $OUT"
until_ok 60 running training.kubeflow.org/job-name=s-mpi 3 || fail "s-mpi pods not back: $(k get pods)"

# ---- the operator-free batch/v1 Job ----
tc submit pytorch --operator=none --name=s-none --workers=2 --image=img "python train.py" >/dev/null
check_kind s-none job.batch .spec.suspend job-name=s-none 2

# ---- Volcano Job: bus Commands ----
tc submit volcano --name=s-vc --image=img --task=ps:1 --task=worker:2 "python train.py" >/dev/null
until_ok 60 running volcano.sh/job-name=s-vc 3 || fail "s-vc not running: $(k get pods)"
OUT=$(tc suspend s-vc 2>&1) || fail "suspend s-vc: $OUT"
until_ok 60 bash -c "[[ \$(k get vcjob s-vc -o jsonpath='{.status.state.phase}') == Aborted ]]" ||
  fail "s-vc not Aborted: $(k get vcjob s-vc -o yaml)"
until_ok 60 none volcano.sh/job-name=s-vc || fail "s-vc pods left: $(k get pods)"
[[ -z $(k get commands.bus.volcano.sh -o name) ]] || fail "the Command was not taken: $(k get commands.bus.volcano.sh -o yaml)"
OUT=$(k get events --field-selector involvedObject.name=s-vc,reason=CommandIssued -o jsonpath='{.items[*].message}')
expect_output "CommandIssued event" "Start to execute command AbortJob"
OUT=$(tc get s-vc 2>&1)
expect_output "get s-vc" "SUSPENDED"
OUT=$(tc suspend s-vc 2>&1)
[[ "$OUT" == "The training job s-vc is already suspended" ]] || fail "second suspend s-vc: $OUT"
OUT=$(tc resume s-vc 2>&1) || fail "resume s-vc: $OUT"
until_ok 60 running volcano.sh/job-name=s-vc 3 || fail "s-vc pods not back: $(k get vcjob s-vc -o yaml)"
[[ $(k get vcjob s-vc -o jsonpath='{.status.state.phase}') == Running ]] || fail "s-vc not Running"

# ---- a job in a Kueue queue: Kueue's, refused ----
kueue_queues 0
tc submit mpi --name=q-mpi --gpus=1 --workers=1 --image=img --kueue-queue=team-a "mpirun python train.py" >/dev/null
until_ok 30 bash -c "[[ -n \$(k get workloads -o name) ]]" || fail "no Workload for q-mpi"
WL=$(k get workloads -o jsonpath='{.items[0].metadata.name}')
set +e
OUT=$(tc resume q-mpi 2>&1)
rc=$?
set -e
[[ $rc == 2 ]] || fail "resume of a Kueue-queued job exited $rc: $OUT"
[[ "$OUT" == "error: MPIJob q-mpi is in Kueue queue team-a: Kueue suspends and resumes it and would undo a resume; set spec.active of Workload $WL to true (kueuectl resume workload)" ]] ||
  fail "resume of a Kueue-queued job: $OUT"
[[ $(k get mpijob q-mpi -o jsonpath='{.spec.runPolicy.suspend}') == true ]] || fail "q-mpi was changed"

# ---- a CRD without spec.runPolicy.suspend: refused ----
start_kubesim --default-outcome run-forever --crd-drop-field pytorchjobs.kubeflow.org:spec.runPolicy.suspend
tc submit pytorch --name=old-py --workers=1 --image=img "python train.py" >/dev/null
set +e
OUT=$(tc suspend old-py 2>&1)
rc=$?
set -e
[[ $rc == 2 ]] || fail "suspend without the field exited $rc: $OUT"
[[ "$OUT" == "error: PyTorchJob old-py cannot be suspended or resumed here: the served PyTorchJob (kubeflow.org/v1) has no spec.runPolicy.suspend (an operator release before suspend was added)" ]] ||
  fail "suspend without the field: $OUT"
[[ -z $(k get pytorchjob old-py -o jsonpath='{.spec.runPolicy.suspend}') ]] || fail "old-py was changed"

# ---- TrainJob (Kubeflow Trainer v2), created with kubectl ----
require_trainer_runtimes
start_kubesim --default-outcome run-forever --runtimes "$RUNTIMES" --operators trainer,jobset
k apply -f - >/dev/null <<'YAML'
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: s-tj}
spec:
  runtimeRef: {name: torch-distributed}
  trainer: {numNodes: 2, command: [torchrun, /workspace/mnist.py]}
YAML
until_ok 60 running jobset.sigs.k8s.io/jobset-name=s-tj 2 || fail "s-tj not running: $(k get pods)"
OUT=$(tc suspend s-tj -T trainjob 2>&1) || fail "suspend s-tj: $OUT"
expect_output "suspend s-tj" "The training job s-tj is being suspended"
[[ $(k get trainjob s-tj -o jsonpath='{.spec.suspend}') == true ]] || fail "s-tj: spec.suspend is not true"
until_ok 60 none jobset.sigs.k8s.io/jobset-name=s-tj || fail "s-tj pods left: $(k get pods)"
OUT=$(k wait --for=condition=Suspended trainjob/s-tj --timeout=60s 2>&1) || fail "s-tj not Suspended: $OUT"
OUT=$(tc suspend s-tj -T tj 2>&1)
[[ "$OUT" == "The training job s-tj is already suspended" ]] || fail "second suspend s-tj: $OUT"
OUT=$(tc resume s-tj -T trainjob 2>&1) || fail "resume s-tj: $OUT"
[[ $(k get trainjob s-tj -o jsonpath='{.spec.suspend}') == false ]] || fail "s-tj: spec.suspend is not false"
until_ok 60 running jobset.sigs.k8s.io/jobset-name=s-tj 2 || fail "s-tj pods not back: $(k get pods)"
echo "suspend_resume: ok"
