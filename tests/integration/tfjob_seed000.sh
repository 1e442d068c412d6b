#!/usr/bin/env bash
# Seed 000's TFJobs beside its PyTorch job: two TFJobs created with kubectl (the shapes of
# tf-dist and tf-git: a PS and two GPU workers, one GPU worker with a chief) run on kubesim's
# training-operator to SUCCEEDED, and trainctl's list, top job, get and logs show them in
# Arena's columns with TRAINER TFJOB, the chief picked as the operator picks it.
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
command -v kubectl >/dev/null 2>&1 || skip_or_fail "kubectl not found"
kc() { kubectl --kubeconfig "$KCFG" "$@"; }

start_kubesim --default-outcome succeed --default-duration 4m

# tf-dist: no Chief, so worker 0 is the chief (training-operator IsMasterRole); 2 GPUs.
# tf-git: a Chief with one GPU worker beside it; 1 GPU.
cat >"$WORK/tfjobs.yaml" <<'YAML'
apiVersion: kubeflow.org/v1
kind: TFJob
metadata:
  name: tf-dist
spec:
  tfReplicaSpecs:
    PS:
      replicas: 1
      restartPolicy: Never
      template:
        spec:
          containers:
            - name: tensorflow
              image: kubeflow/tf-dist-mnist-test:1.0
              command: [python, /var/tf_dist_mnist/dist_mnist.py]
    Worker:
      replicas: 2
      restartPolicy: Never
      template:
        spec:
          containers:
            - name: tensorflow
              image: kubeflow/tf-dist-mnist-test:1.0
              command: [python, /var/tf_dist_mnist/dist_mnist.py]
              resources:
                limits:
                  nvidia.com/gpu: 1
---
apiVersion: kubeflow.org/v1
kind: TFJob
metadata:
  name: tf-git
spec:
  tfReplicaSpecs:
    Chief:
      replicas: 1
      restartPolicy: Never
      template:
        spec:
          containers:
            - name: tensorflow
              image: tensorflow/tensorflow:1.5.0
              command: [python, /root/code/tensorflow-sample-code/tfjob/docker/mnist/main.py]
    Worker:
      replicas: 1
      restartPolicy: Never
      template:
        spec:
          containers:
            - name: tensorflow
              image: tensorflow/tensorflow:1.5.0-gpu
              command: [python, /root/code/tensorflow-sample-code/tfjob/docker/mnist/main.py]
              resources:
                limits:
                  nvidia.com/gpu: 1
YAML
OUT=$(kc apply -f "$WORK/tfjobs.yaml" 2>&1) || fail "kubectl apply: $OUT"

# While they run: TRAINER TFJOB and the GPUs each asks for and holds.
for _ in $(seq 200); do
  list=$(tc list)
  grep -Eq '^tf-dist +RUNNING ' <<<"$list" && grep -Eq '^tf-git +RUNNING ' <<<"$list" && break
  sleep 0.1
done
expect_row() {  # expect_row WHAT REGEX TEXT
  grep -Eq -- "$2" <<<"$3" || fail "$1: no line matches /$2/ in:
$3"
}
expect_row "list tf-dist running" '^tf-dist +RUNNING +TFJOB +[0-9]+[sm] +2 +2 +[0-9.]+$' "$list"
expect_row "list tf-git running" '^tf-git +RUNNING +TFJOB +[0-9]+[sm] +1 +1 +[0-9.]+$' "$list"

# The operator's chief: tf-git's Chief replica, tf-dist's worker 0 (never its PS).
get=$(tc get tf-git)
expect_row "get tf-git chief" '^tf-git-chief-0 +Running +[^ ]+ +true ' "$get"
get=$(tc get tf-dist)
expect_row "get tf-dist chief" '^tf-dist-worker-0 +Running +[^ ]+ +true ' "$get"
expect_row "get tf-dist ps" '^tf-dist-ps-0 +Running +[^ ]+ +false ' "$get"

# Every pod gets TF_CONFIG with the cluster of the job's Services (genClusterSpec).
tf_config=$(kc get pod tf-dist-worker-1 -o jsonpath='{.spec.containers[0].env[?(@.name=="TF_CONFIG")].value}')
python3 - "$tf_config" <<'PY' || fail "TF_CONFIG of tf-dist-worker-1: $tf_config"
import json, sys
c = json.loads(sys.argv[1])
assert c["cluster"] == {"ps": ["tf-dist-ps-0.default.svc:2222"],
                        "worker": ["tf-dist-worker-0.default.svc:2222", "tf-dist-worker-1.default.svc:2222"]}, c
assert c["task"] == {"type": "worker", "index": 1}, c
PY

# Both succeed: list shows GPU(Allocated) only for pending and running jobs (Arena's list),
# top job counts 0; NODE stays the chief pod's host IP while the pod exists.
for _ in $(seq 600); do
  list=$(tc list)
  grep -Eq '^tf-dist +SUCCEEDED ' <<<"$list" && grep -Eq '^tf-git +SUCCEEDED ' <<<"$list" && break
  sleep 0.1
done
expect_row "list tf-dist succeeded" '^tf-dist +SUCCEEDED +TFJOB +[0-9]+[sm] +2 +N/A +[0-9.]+$' "$list"
expect_row "list tf-git succeeded" '^tf-git +SUCCEEDED +TFJOB +[0-9]+[sm] +1 +N/A +[0-9.]+$' "$list"
top_job=$(tc top job)
expect_row "top job tf-dist" '^tf-dist +SUCCEEDED +TFJOB +[0-9]+[sm] +2 +0 +[0-9.]+$' "$top_job"
expect_row "top job tf-git" '^tf-git +SUCCEEDED +TFJOB +[0-9]+[sm] +1 +0 +[0-9.]+$' "$top_job"
[[ "$(kc get tfjob tf-git -o jsonpath='{.status.conditions[?(@.type=="Succeeded")].status}')" == True ]] ||
  fail "kubectl does not read tf-git as Succeeded"

# logs follows the chief: the Chief's log for tf-git, worker 0's for tf-dist.
[[ "$(tc logs tf-git)" == "$(kc logs tf-git-chief-0)" ]] || fail "logs tf-git is not the chief's log"
[[ "$(tc logs tf-dist)" == "$(kc logs tf-dist-worker-0)" ]] || fail "logs tf-dist is not worker 0's log"
OUT=$(tc list -T tf -o name) || fail "list -T tf: $OUT"
[[ "$(sort <<<"$OUT")" == $'tfjob/tf-dist\ntfjob/tf-git' ]] || fail "list -T tf -o name: $OUT"
echo "ok"
