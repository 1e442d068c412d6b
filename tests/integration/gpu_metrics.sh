#!/usr/bin/env bash
# GPU utilisation and memory from Prometheus, end to end: kubesim serves each exporter family
# (--prometheus dcgm | dcgm-exported | arena) through the API server's service proxy, and
# trainctl finds that Prometheus by its Service and prints the simulated numbers in top job,
# get -g and top node -d, and list --idle finds the job whose GPU sits idle. Without Prometheus the commands print N/A and one line of why; a
# Prometheus that answers 503 or hangs costs at most trainctl's 5 s timeout and never fails
# the command.
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
command -v python3 >/dev/null || skip_or_fail "python3 not found"

submit_jobs() {
  OUT=$(tc submit pytorch --name=busy --gpus=2 --workers=2 --image=pytorch/pytorch:2.3 \
    "python train.py" 2>&1) || fail "submit busy: $OUT"
  OUT=$(tc submit pytorch --name=idle --gpus=1 --image=pytorch/pytorch:2.3 \
    --annotation kubesim.trainctl.io/gpu-profile=idle "python train.py" 2>&1) || fail "submit idle: $OUT"
  for _ in $(seq 200); do
    [[ $(tc list 2>/dev/null | grep -c ' RUNNING ') -eq 2 ]] && return 0
    sleep 0.1
  done
  fail "the jobs did not start: $(tc list)"
}

for exporter in dcgm dcgm-exported arena; do
  start_kubesim --prometheus "$exporter" --default-outcome run-forever
  submit_jobs
  # Master and worker hold 2 GPUs each: four rows with a duty cycle of the busy profile
  # (70-99 %) and 60 % of 16 GiB used (DCGM reports whole MiB). A GPU's series appear at its
  # pod's first scrape.
  # GPU(Idle) is "no": busy, and younger than the 10 minute window anyway.
  gpu_row='^busy-(master|worker)-0 +Running +2 +[^ ]+ +[0-7] +(7[0-9]|8[0-9]|9[0-9])\.[0-9]% +9830\.[04]/16384\.0\(MiB\) +no$'
  for _ in $(seq 200); do
    OUT=$(tc top job busy 2>&1) || fail "top job busy ($exporter): $OUT"
    [[ $(grep -cE "$gpu_row" <<<"$OUT") -eq 4 ]] && break
    sleep 0.1
  done
  [[ $(grep -cE "$gpu_row" <<<"$OUT") -eq 4 ]] || fail "top job busy ($exporter) lacks its four GPU rows: $OUT"
  OUT=$(tc top job idle 2>&1) || fail "top job idle: $OUT"
  grep -Eq '^idle-master-0 +Running +1 +[^ ]+ +[0-7] +0\.0% ' <<<"$OUT" || fail "idle ($exporter) is not idle: $OUT"

  OUT=$(tc get busy -g 2>&1) || fail "get -g ($exporter): $OUT"
  expect_output "get -g" "GPU(DutyCycle)  GPU Memory(Used/Total)"
  expect_output "get -g" "Allocated/Requested GPUs of Job: 4/4"
  OUT=$(tc top node -d 2>&1) || fail "top node -d ($exporter): $OUT"
  expect_output "top node -d" "default/busy-worker-0"
  OUT=$(tc top node 2>&1) || fail "top node ($exporter): $OUT"
  expect_output "top node" "Average GPU Utilization In Cluster:"

  # list --idle: after more than a minute of kubesim's time (--speed 20), the job whose GPU
  # stayed at 0 % is listed, the busy one is not.
  if [[ $exporter == dcgm ]]; then
    sleep 4
    OUT=$(tc list --idle --idle-window 1m 2>&1) || fail "list --idle: $OUT"
    grep -Eq '^idle +RUNNING +PYTORCHJOB +[^ ]+ +1 +1/1 +0\.0% ' <<<"$OUT" || fail "list --idle lacks idle: $OUT"
    if grep -q '^busy ' <<<"$OUT"; then fail "list --idle lists the busy job: $OUT"; fi
    [[ $(head -1 <<<"$OUT") =~ ^NAME\ +STATUS\ +TRAINER\ +DURATION\ +GPU\(Allocated\)\ +GPU\(Idle\)\ +MAX_UTIL\ +NODE$ ]] ||
      fail "list --idle header: $OUT"
    # The same GPU is marked in top job and top node; the busy ones are not.
    OUT=$(tc top job idle --idle-window 1m 2>&1) || fail "top job idle --idle-window: $OUT"
    grep -Eq '^idle-master-0 +Running +1 +[^ ]+ +[0-7] +0\.0% +[^ ]+ +yes$' <<<"$OUT" || fail "top job idle: $OUT"
    expect_output "top job idle" "Idle/Allocated GPUs: 1/1 (under 5% for the last 1m)"
    OUT=$(tc top job busy --idle-window 1m 2>&1) || fail "top job busy --idle-window: $OUT"
    expect_output "top job busy" "Idle/Allocated GPUs: 0/4 (under 5% for the last 1m)"
    OUT=$(tc top node --idle-window 1m 2>&1) || fail "top node --idle-window: $OUT"
    expect_output "top node" "Idle/Allocated GPUs: 1/5 (under 5% for the last 1m)"
    [[ $(head -1 <<<"$OUT") =~ \ GPU\(Util\)\ +GPU\(Idle\)$ ]] || fail "top node header: $OUT"
    OUT=$(tc top node -d --idle-window 1m 2>&1) || fail "top node -d --idle-window: $OUT"
    grep -Eq '^  [0-7] +0\.0% +[0-9.]+/16\.0 +default/idle-master-0 +yes$' <<<"$OUT" || fail "top node -d idle: $OUT"
    [[ $(grep -cE ' default/busy-(master|worker)-0 +no$' <<<"$OUT") -eq 4 ]] || fail "top node -d busy: $OUT"
    tc top node --idle-window 1m -o json | python3 -c '
import json, sys
gpus = [g for n in json.load(sys.stdin) for g in n["gpuMetrics"] or []]
idle = [g["instance"] for g in gpus if g["idle"]]
assert idle == ["idle-master-0"], idle
assert all(g["idle"] is None for g in gpus if not g["instance"]), gpus
assert all(g["maxGPUDutyCycle"] >= 70 for g in gpus if g["instance"].startswith("busy")), gpus
' || fail "top node -o json: idle and maxGPUDutyCycle"
  fi

  # JSON: the same numbers, memory in bytes.
  tc top job busy -o json | python3 -c '
import json, sys
job = json.load(sys.stdin)
m = job["instances"][0]["gpuMetrics"]["0"]
assert 70 <= m["gpuDutyCycle"] <= 99, m
assert abs(m["usedGPUMemory"] - 0.6 * 16 * 2**30) < 2**20 and m["totalGPUMemory"] == 16 * 2**30, m
' || fail "top job -o json ($exporter) lacks the GPU numbers"
done

# MIG (single strategy): two A100s as 14 1g.5gb devices. A job's devices are rows "GPU/mig-ID"
# with DCGM's GR_ENGINE_ACTIVE ratio as a percentage and each device's 5 GB.
cat >"$WORK/mig.yaml" <<'YAML'
nodes:
  - name: mig-a
    ip: 10.0.0.31
    gpus: 14
    cpu: "64"
    memory: 512Gi
    labels: {nvidia.com/mig.strategy: single, nvidia.com/gpu.product: A100-SXM4-40GB-MIG-1g.5gb,
             nvidia.com/gpu.memory: "5120", nvidia.com/gpu.slices.gi: "1"}
YAML
KUBESIM_SEED="$WORK/mig.yaml" start_kubesim --prometheus dcgm --default-outcome run-forever
OUT=$(tc submit pytorch --name=mig --gpus=2 --image=pytorch/pytorch:2.3 "python train.py" 2>&1) || fail "submit mig: $OUT"
mig_row='^mig-master-0 +Running +2 +mig-a +0/mig-[01] +(7[0-9]|8[0-9]|9[0-9])\.[0-9]% +3072\.0/5120\.0\(MiB\) +no$'
for _ in $(seq 200); do
  OUT=$(tc top job mig 2>&1) || fail "top job mig: $OUT"
  [[ $(grep -cE "$mig_row" <<<"$OUT") -eq 2 ]] && break
  sleep 0.1
done
[[ $(grep -cE "$mig_row" <<<"$OUT") -eq 2 ]] || fail "top job mig lacks its two MIG rows: $OUT"
OUT=$(tc top node -d 2>&1) || fail "top node -d (MIG): $OUT"
[[ $(grep -cE '^  [01]/mig-[0-6] ' <<<"$OUT") -eq 14 ]] || fail "top node -d lacks the 14 MIG devices: $OUT"

# No Prometheus: N/A, exit 0, one line on stderr.
start_kubesim --default-outcome run-forever
submit_jobs
err=$(tc top job busy 2>&1 >/dev/null) || fail "top job without Prometheus failed: $err"
[[ "$err" == "GPU metrics unavailable: no Prometheus found in the cluster; name one with --prometheus URL or TRAINCTL_PROMETHEUS" ]] ||
  fail "top job without Prometheus says: $err"
grep -Eq '^busy-worker-0 +Running +2 +[^ ]+ +N/A +N/A +N/A$' <<<"$(tc top job busy 2>/dev/null)" ||
  fail "top job without Prometheus: $(tc top job busy 2>&1)"
set +e
OUT=$(tc list --idle 2>&1)
rc=$?
set -e
[[ $rc -eq 1 && $OUT == "error: list --idle needs GPU metrics: no Prometheus found in the cluster; name one with --prometheus URL or TRAINCTL_PROMETHEUS" ]] ||
  fail "list --idle without Prometheus (exit $rc): $OUT"

# A Prometheus that answers 503, then one that does not answer within 20 s.
for fault in "{path: /proxy/, action: status, status: 503}" "{path: /proxy/, action: latency, delayMs: 20000}"; do
  echo "- $fault" >"$WORK/faults.yaml"
  start_kubesim --prometheus dcgm --default-outcome run-forever --faults "$WORK/faults.yaml"
  submit_jobs
  start=$SECONDS
  OUT=$(tc top job busy 2>&1) || fail "top job with a broken Prometheus ($fault) failed: $OUT"
  (( SECONDS - start <= 8 )) || fail "top job waited $((SECONDS - start)) s for a broken Prometheus ($fault)"
  expect_output "broken Prometheus ($fault)" "GPU metrics unavailable: Prometheus monitoring/prometheus-server:9090: "
  grep -Eq '^busy-worker-0 +Running +2 +[^ ]+ +N/A +N/A +N/A$' <<<"$OUT" || fail "broken Prometheus ($fault): $OUT"
done
echo "ok"
