#!/usr/bin/env bash
# An elastic PyTorchJob as trainctl renders it (Workers only, spec.elasticPolicy, torchrun on
# c10d) loses one of its three workers while training on kubesim: the others restart their
# worker group as torchrun's elastic agent does, the operator recreates the pod, and the job
# still SUCCEEDS; list and get show the running workers against the elastic range. With no
# restart left (--max-restarts 0) the agents stop, and the operator replaces their pods, as
# the Workers' restartPolicy OnFailure asks (common/pod.go ReconcilePods): the job goes on.
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
command -v kubectl >/dev/null 2>&1 || skip_or_fail "kubectl not found"
kc() { kubectl --kubeconfig "$KCFG" "$@"; }

start_kubesim --default-outcome succeed --default-duration 8m
elastic=(--workers=3 --min-workers=2 --max-workers=3 --gpus=1 --image=pytorch/pytorch:2.3)
OUT=$(tc submit pytorch --name=el "${elastic[@]}" --max-restarts=3 "torchrun train.py" 2>&1) || fail "submit: $OUT"
OUT=$(tc submit pytorch --name=el0 "${elastic[@]}" --max-restarts=0 "torchrun train.py" 2>&1) ||
  fail "submit el0: $OUT"

# Wait until all three workers of both run.
for _ in $(seq 300); do
  list=$(tc list)
  grep -Eq '^el +RUNNING .* 3 \(elastic 2-3\)$' <<<"$list" &&
    grep -Eq '^el0 +RUNNING .* 3 \(elastic 2-3\)$' <<<"$list" && break
  sleep 0.1
done
grep -Eq '^el +RUNNING +PYTORCHJOB .* 3 \(elastic 2-3\)$' <<<"$list" || fail "el not running with 3 workers: $list"
[[ "$(head -1 <<<"$list")" =~ NODE\ +WORKERS$ ]] || fail "list has no WORKERS column: $list"

# Lose worker 1 of each.
kc delete pod el-worker-1 el0-worker-1 --wait=false >/dev/null

# el0 has no restart left: its agents stop and the operator replaces their pods. el restarts
# its worker group and goes on.
restarted="job el0 is restarting because Worker replica(s) failed."
for _ in $(seq 300); do
  grep -qF "$restarted" <<<"$(kc get events -o jsonpath='{.items[*].message}')" && break
  sleep 0.1
done
grep -qF "$restarted" <<<"$(kc get events -o jsonpath='{.items[*].message}')" ||
  fail "el0's stopped workers were not replaced: $(kc get events)"
if grep -Eq '^el0 +FAILED ' <<<"$(tc list)"; then fail "el0 failed although its workers restart: $(tc list)"; fi
get=$(tc get el)
grep -Eq '^Status: +RUNNING$' <<<"$get" || fail "el is not running after losing a worker: $get"
grep -Eq '^Workers: +[23] \(elastic 2-3\)$' <<<"$get" || fail "get shows no elastic workers: $get"
grep -Eq '^el-worker-0 +Running +[^ ]+ +true ' <<<"$get" || fail "worker 0 is not el's chief: $get"
# grep -q on a pipe would stop reading at the first match, and kubectl's write to the closed
# pipe would then fail the pipeline under pipefail: read the whole log first.
log=$(kc logs el-worker-0)
grep -qF "Worker group FAILED. 3/3 attempts left; will restart worker group" <<<"$log" ||
  fail "worker 0 did not restart its worker group: $log"

# The operator recreates worker 1; the job finishes.
for _ in $(seq 900); do
  grep -Eq '^el +SUCCEEDED ' <<<"$(tc list)" && break
  sleep 0.1
done
grep -Eq '^el +SUCCEEDED ' <<<"$(tc list)" || fail "el did not succeed: $(tc list)"
[[ -n "$(kc get pod el-worker-1 -o name 2>/dev/null)" ]] || fail "the lost worker was not recreated"
[[ "$(kc get pytorchjob el -o jsonpath='{.status.conditions[?(@.type=="Succeeded")].status}')" == True ]] ||
  fail "kubectl does not read el as Succeeded"
echo "ok"
