#!/usr/bin/env bash
# The PyTorch walk-through of seed 000, with trainctl in place of arena, against kubesim's
# demo cluster: top node, data list, submit pytorch, list, top job, top node, get, logs,
# logs -i, logs -t, delete. Checks the table layouts and the numbers a user would read.
set -euo pipefail
# INSPECT_KUBESIM_ARGS adds kubesim flags (e.g. --plain-http when debugging TLS).

SOURCE_DIR=${SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
KUBESIM_SEED="$SOURCE_DIR/tools/kubesim/seeds/demo.yaml" KUBESIM_SPEED=1 KUBESIM_SCHEMAS_OPTIONAL=1
source "$(dirname "$0")/kubesim_env.bash"
tmp="$WORK"
# shellcheck disable=SC2086
start_kubesim ${INSPECT_KUBESIM_ARGS:-} --default-duration 30m
t() { tc "$@"; }
expect_eq() {  # expect_eq WHAT EXPECTED ACTUAL
  if [[ "$2" != "$3" ]]; then
    echo "FAIL: $1"; echo "--- expected"; printf '%s\n' "$2"; echo "--- actual"; printf '%s\n' "$3"; exit 1
  fi
}
expect_match() {  # expect_match WHAT REGEX TEXT
  grep -Eq -- "$2" <<<"$3" || { echo "FAIL: $1: no line matches /$2/ in:"; printf '%s\n' "$3"; exit 1; }
}

# 1. arena top node: three masters without GPUs, three workers with 2 GPUs, nothing allocated.
expect_eq "top node before submitting" \
"NAME                       IPADDRESS     ROLE    STATUS  GPU(Total)  GPU(Allocated)
cn-huhehaote.192.168.0.20  192.168.0.20  master  ready   0           0
cn-huhehaote.192.168.0.21  192.168.0.21  master  ready   0           0
cn-huhehaote.192.168.0.22  192.168.0.22  master  ready   0           0
cn-huhehaote.192.168.0.31  192.168.0.31  <none>  ready   2           0
cn-huhehaote.192.168.0.32  192.168.0.32  <none>  ready   2           0
cn-huhehaote.192.168.0.33  192.168.0.33  <none>  ready   2           0
-----------------------------------------------------------------------------------------
Allocated/Total GPUs In Cluster:
0/6 (0%)" "$(t top node)"

# The volume the job mounts, with the description and owner of its annotations.
expect_match "data list" '^training-data +ReadWriteMany +MNIST training and test images +ml-platform +[0-9]+[smhd]$' \
  "$(t data list)"
expect_eq "data list header" "NAME           ACCESSMODE     DESCRIPTION                     OWNER        AGE" \
  "$(t data list | head -1)"

# 2. Submit the job of the walk-through.
t submit pytorch "${SEED000_PYTORCH[@]}" \
  >"$tmp/submit.out"

# 3. arena list: wait until the three pods run.
list=
for _ in $(seq 150); do
  list=$(t list)
  grep -Eq '^pytorch-dist +RUNNING ' <<<"$list" && break
  sleep 0.2
done
expect_eq "list header" "NAME          STATUS   TRAINER     DURATION  GPU(Requested)  GPU(Allocated)  NODE" "$(head -1 <<<"$list")"
expect_match "list row" '^pytorch-dist  RUNNING  PYTORCHJOB  [0-9]+[sm] +3 +3 +192\.168\.0\.3[123]$' "$list"

# 4. arena top job.
top_job=$(t top job)
expect_match "top job row" '^pytorch-dist +RUNNING +PYTORCHJOB +[0-9]+[sm] +3 +3 +192\.168\.0\.3[123]$' "$top_job"
expect_eq "top job footer" "Total Allocated/Requested GPUs of Training Jobs: 3/3" "$(tail -1 <<<"$top_job")"
# The per-job view: one row per instance, no GPU metrics source (N/A).
one_job=$(t top job pytorch-dist)
expect_match "top job NAME header" '^NAME +STATUS +GPU\(Request\) +NODE +GPU\(DeviceIndex\) +GPU\(DutyCycle\) +GPU_MEMORY\(Used/Total\)$' "$(head -1 <<<"$one_job")"
expect_match "top job NAME chief" '^pytorch-dist-master-0 +Running +1 +cn-huhehaote\.192\.168\.0\.3[123] +N/A +N/A +N/A$' "$one_job"
[[ $(wc -l <<<"$one_job") == 4 ]] || fail "top job pytorch-dist: expected a header and 3 instances"
[[ $(t top job pytorch-dist -i pytorch-dist-worker-0 | wc -l) == 2 ]] || fail "top job -i: expected one instance"

# 5. arena top node: three of six GPUs allocated.
expect_eq "top node footer" "Allocated/Total GPUs In Cluster:
3/6 (50%)" "$(t top node | tail -2)"

# 6. arena get: the newer layout, three instances, the TensorBoard URL.
get=$(t get pytorch-dist)
expect_eq "get summary" "Name:        pytorch-dist
Status:      RUNNING
Namespace:   default
Priority:    N/A
Trainer:     PYTORCHJOB" "$(head -5 <<<"$get")"
expect_match "get instances" '^pytorch-dist-master-0 +Running +[0-9]+[sm] +true +1 +cn-huhehaote\.192\.168\.0\.3[123]$' "$get"
expect_match "get instances" '^pytorch-dist-worker-1 +Running +[0-9]+[sm] +false +1 +cn-huhehaote\.192\.168\.0\.3[123]$' "$get"
expect_match "tensorboard" '^Your tensorboard will be available on:$' "$get"
expect_match "tensorboard URL" '^http://192\.168\.0\.[0-9]+:3[0-9]{4}$' "$get"
[[ $(t get pytorch-dist -o json | grep -c '"isChief": true') == 1 ]] || fail "get -o json: one chief"

# 7. arena logs: the chief, a worker, the tail.
for _ in $(seq 100); do [[ -n "$(t logs pytorch-dist)" ]] && break; sleep 0.2; done
[[ -n "$(t logs pytorch-dist)" ]] || fail "logs of the chief are empty"
t logs pytorch-dist -i pytorch-dist-worker-0 >/dev/null
[[ $(t logs pytorch-dist -t 2 | wc -l) -le 2 ]] || fail "logs -t 2 printed more than 2 lines"
if t logs pytorch-dist -i no-such-pod 2>"$tmp/err"; then fail "logs -i with a wrong instance succeeded"; fi
grep -qx "  pytorch-dist-master-0 (chief)" "$tmp/err" || fail "logs -i error does not list the instances: $(cat "$tmp/err")"
[[ $(t logs pytorch-dist -i worker-1 | grep -m1 "^WORLD_SIZE") == "WORLD_SIZE: 3, CURRENT_RANK: 2" ]] || fail "logs -i worker-1"

# 8. delete returns at once; the job is TERMINATING until its pods have stopped (their 30s
# grace period), then gone, and a second delete is NotFound (exit 3).
expect_eq "delete" "The training job pytorch-dist is being deleted: TERMINATING until its pods have stopped" \
  "$(t delete pytorch-dist)"
for _ in $(seq 300); do grep -q '^pytorch-dist ' <<<"$(t list)" || break; sleep 0.1; done
if grep -q '^pytorch-dist ' <<<"$(t list)"; then fail "job still listed 30 s after delete"; fi
set +e
t delete pytorch-dist 2>/dev/null
rc=$?
set -e
[[ $rc == 3 ]] || fail "second delete exited $rc, not 3"
echo "ok: seed 000 walk-through"
