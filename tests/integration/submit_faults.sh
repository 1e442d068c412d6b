#!/usr/bin/env bash
# Atomic submit against kubesim's fault injection: when a create after the job's fails
# (500, 422, dropped connections: libcurl itself re-sends once on a reused connection that
# died, hence first:3), trainctl removes what it had created and reports the
# failure; no object of that job is left on the cluster. A 409 on the job touches nothing.
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
start_kubesim --default-outcome run-forever

server=$(sed -n 's/^ *server: *//p' "$KCFG" | head -1)
token=$(sed -n 's/^ *token: *//p' "$KCFG" | head -1)
sed -n 's/^ *certificate-authority-data: *//p' "$KCFG" | head -1 | base64 -d >"$WORK/ca.pem"
api() { curl -sS --cacert "$WORK/ca.pem" -H "Authorization: Bearer $token" "$server$1"; }
set_faults() { curl -sS --fail --cacert "$WORK/ca.pem" -H "Authorization: Bearer $token" \
  -X POST -H 'Content-Type: application/json' --data "$1" "$server/kubesim/faults" >/dev/null; }
clear_faults() { curl -sS --cacert "$WORK/ca.pem" -H "Authorization: Bearer $token" -X DELETE "$server/kubesim/faults" >/dev/null; }

# count_objects NAME: objects named NAME or NAME-* among jobs, deployments and services.
count_objects() {
  local n=0 path
  for path in /apis/kubeflow.org/v1/namespaces/default/pytorchjobs /apis/apps/v1/namespaces/default/deployments \
    /api/v1/namespaces/default/services; do
    n=$((n + $(api "$path" | grep -oE "\"name\": ?\"$1(-[a-z0-9-]+)?\"" | wc -l)))
  done
  echo "$n"
}

submit() {  # submit NAME: a PyTorchJob with TensorBoard (job, Deployment, Service)
  tc submit pytorch --name="$1" --workers=2 --gpus=1 --image=pytorch/pytorch --tensorboard "python train.py" 2>&1
}

i=0
for rule in \
  '{"method":"POST","path":"/services$","first":1,"action":"status","status":500,"message":"injected"}' \
  '{"method":"POST","path":"/deployments$","first":1,"action":"status","status":422,"message":"injected invalid"}' \
  '{"method":"POST","path":"/services$","first":3,"action":"reset"}'; do
  i=$((i + 1))
  name="faulty-$i"
  set_faults "[$rule]"
  if OUT=$(submit "$name"); then fail "submit $name succeeded despite the fault: $OUT"; fi
  [[ $(wc -l <<<"$OUT") -le 3 ]] || fail "submit $name: the error is not short:
$OUT"
  clear_faults
  # trainctl deletes the job and what it created; what the operator made for the job in the
  # meantime (its Services) goes with the job's garbage collection, a moment later, as on a
  # real cluster (Background propagation).
  for _ in $(seq 1 50); do
    left=$(count_objects "$name")
    [[ "$left" == 0 ]] && break
    sleep 0.1
  done
  [[ "$left" == 0 ]] || fail "submit $name under $rule left $left objects behind: $OUT"
  echo "ok: $rule -> $(tail -1 <<<"$OUT")"
done

# The same name submits cleanly once the faults are gone: nothing half-made was in the way.
OUT=$(submit faulty-1) || fail "resubmit after rollback failed: $OUT"
[[ $(count_objects faulty-1) -ge 3 ]] || fail "resubmitted job lacks its objects"
# 409 on the job: nothing else is created or deleted.
before=$(count_objects faulty-1)
if OUT=$(submit faulty-1); then fail "a taken name was accepted"; fi
expect_output "409" "job faulty-1 already exists in namespace default"
[[ $(count_objects faulty-1) == "$before" ]] || fail "the refused submit changed the existing job's objects"
echo "ok: rollback left no orphans; a taken name changed nothing"
