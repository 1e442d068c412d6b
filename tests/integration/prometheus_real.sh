#!/usr/bin/env bash
# trainctl's GPU metrics judged by a real Prometheus (prometheus_real.bash): it scrapes
# kubesim's dcgm-exporter endpoints under honor_labels: false, so the job's pod lands in
# exported_pod as Prometheus writes it, and answers trainctl's PromQL (the `or` arms,
# max_over_time, label_replace, query_range) through the API server's service proxy. Checked:
# top job NAME, get -g, top node, top node -d with their sparklines, the JSON history against
# Prometheus' own query_range answer, and, once the idle job is older than the 1m window,
# the idle GPU in top job, top node -d and list --idle.
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
command -v kubectl >/dev/null || skip_or_fail "kubectl not found"
source "$(dirname "$0")/prometheus_real.bash"

start_real_prometheus dcgm false --default-outcome run-forever
OUT=$(tc submit pytorch --name=busy --gpus=2 --workers=2 --image=pytorch/pytorch:2.3 "python train.py" 2>&1) ||
  fail "submit busy: $OUT"
OUT=$(tc submit pytorch --name=idle --gpus=1 --image=pytorch/pytorch:2.3 \
  --annotation kubesim.trainctl.io/gpu-profile=idle "python train.py" 2>&1) || fail "submit idle: $OUT"
IDLE_SUBMITTED=$SECONDS

# The service proxy reaches the real Prometheus, whose series of the job's GPUs carry the job's
# pod as exported_pod and the exporter's own pod as pod (honor_labels: false).
for _ in $(seq 300); do
  OUT=$(prom_query 'DCGM_FI_DEV_GPU_UTIL{exported_pod=~"busy-.*"}') || fail "query through the service proxy: $OUT"
  [[ $(grep -o '"exported_pod"' <<<"$OUT" | wc -l) -eq 4 ]] && break
  sleep 0.1
done
python3 - "$OUT" <<'PY' || fail "the relabelled series: $OUT"
import json, sys
result = json.loads(sys.argv[1])["data"]["result"]
assert len(result) == 4, result
for s in result:
    m = s["metric"]
    assert m["exported_pod"] in ("busy-master-0", "busy-worker-0") and m["exported_namespace"] == "default", m
    assert m["pod"].startswith("nvidia-dcgm-exporter-") and m["namespace"] == "gpu-operator", m
    assert m["exported_container"] == "pytorch" and m["container"] == "nvidia-dcgm-exporter", m
    assert m["instance"].endswith(":9400") and m["Hostname"] in ("gpu-a", "gpu-b"), m
    assert 70 <= float(s["value"][1]) <= 99, s
PY

# top job NAME: one row per GPU, the busy profile's 70-99 % and 60 % of 16 GiB, read through
# the exported_pod arm of the query.
gpu_row='^busy-(master|worker)-0 +Running +2 +[^ ]+ +[0-7] +(7[0-9]|8[0-9]|9[0-9])\.0% +9830\.0/16384\.0\(MiB\) +no$'
# The sparkline section (not a terminal: ASCII glyphs; busy is 70-99 %, so + * #). A GPU's
# history starts with its first scrape in the range query's steps: the worker's may come a
# scrape after the master's, so the rows are read again until all four have one.
spark_row='^busy-(master|worker)-0 +[0-7] +[+*# ]*[+*#] +(7[0-9]|8[0-9]|9[0-9])\.[0-9]% +[0-9.]+% +[0-9.]+% +-$'
for _ in $(seq 60); do
  OUT=$(tc top job busy --idle-window 1m 2>&1) || fail "top job busy: $OUT"
  [[ $(grep -cE "$gpu_row" <<<"$OUT") -eq 4 && $(grep -cE "$spark_row" <<<"$OUT") -eq 4 ]] && break
  sleep 0.5
done
[[ $(grep -cE "$gpu_row" <<<"$OUT") -eq 4 ]] || fail "top job busy lacks its four GPU rows: $OUT"
expect_output "top job busy" "GPU utilisation, last 1m (2s a column, 0-100%):"
[[ $(grep -cE "$spark_row" <<<"$OUT") -eq 4 ]] || fail "top job busy lacks its four sparklines: $OUT"
OUT=$(tc top job idle 2>&1) || fail "top job idle: $OUT"
grep -Eq '^idle-master-0 +Running +1 +[^ ]+ +[0-7] +0\.0% ' <<<"$OUT" || fail "idle is not idle: $OUT"
grep -Eq '^idle-master-0 +[0-7] +_+ +0\.0% +0\.0% +0\.0% +[0-9ms]+$' <<<"$OUT" || fail "idle's sparkline: $OUT"

OUT=$(tc get busy -g --idle-window 1m 2>&1) || fail "get -g: $OUT"
expect_output "get -g" "Allocated/Requested GPUs of Job: 4/4"
[[ $(grep -cE "$spark_row" <<<"$OUT") -eq 4 ]] || fail "get -g lacks its four sparklines: $OUT"
OUT=$(tc top node 2>&1) || fail "top node: $OUT"
expect_output "top node" "Average GPU Utilization In Cluster:"
OUT=$(tc top node -d --idle-window 1m 2>&1) || fail "top node -d: $OUT"
expect_output "top node -d" "default/busy-worker-0"
# Under its node, each GPU the busy job holds has its sparkline; so has every free GPU (its
# series without pod labels; a GPU's free series went stale when a pod took it).
[[ $(grep -cE '^  default/busy-(master|worker)-0 +[0-7] +[+*# ]*[+*#] ' <<<"$OUT") -eq 4 ]] ||
  fail "top node -d lacks the busy GPUs' sparklines: $OUT"
grep -Eq '^  - +[0-7] +_+ +0\.0% +0\.0% +0\.0% ' <<<"$OUT" || fail "top node -d lacks the free GPUs' sparklines: $OUT"

# The JSON history is Prometheus' own query_range answer, column for column.
tc top job busy --idle-window 1m -o json >"$WORK/busy.json" || fail "top job -o json"
python3 - "$WORK/busy.json" "$PROM_PORT" <<'PY' || fail "top job -o json history: $(cat "$WORK/busy.json")"
import json, sys, urllib.parse, urllib.request
from datetime import datetime
doc = json.load(open(sys.argv[1]))
h = doc["gpuUtilizationHistory"]
assert h["stepSeconds"] == 2 and h["threshold"] == 5, h
start = int(datetime.fromisoformat(h["start"].replace("Z", "+00:00")).timestamp())
end = int(datetime.fromisoformat(h["end"].replace("Z", "+00:00")).timestamp())
assert end - start == 60, h
assert len(h["gpus"]) == 4, h["gpus"]
for g in h["gpus"]:
    q = 'DCGM_FI_DEV_GPU_UTIL{exported_pod="%s", gpu="%s"}' % (g["instance"], g["gpu"])
    url = "http://127.0.0.1:%s/api/v1/query_range?" % sys.argv[2] + urllib.parse.urlencode(
        {"query": q, "start": start, "end": end, "step": 2})
    (series,) = json.load(urllib.request.urlopen(url))["data"]["result"]
    want = [[int(t), float(v)] for t, v in series["values"]]
    assert g["points"] == want, (g, want)
    values = [v for _, v in want]
    assert g["min"] == min(values) and g["max"] == max(values), g
    assert abs(g["mean"] - sum(values) / len(values)) < 1e-9, g
    assert g["underThresholdSince"] is None and g["node"] in ("gpu-a", "gpu-b"), g
PY

# The idle GPU, once its pod is older than the 1m window on Prometheus' clock.
while ((SECONDS - IDLE_SUBMITTED < 64)); do sleep 1; done
OUT=$(tc top job idle --idle-window 1m 2>&1) || fail "top job idle --idle-window: $OUT"
expect_output "top job idle" "Idle/Allocated GPUs: 1/1 (under 5% for the last 1m)"
grep -Eq '^idle-master-0 +[0-7] +_+ +0\.0% +0\.0% +0\.0% +1m\+$' <<<"$OUT" || fail "idle for the whole window: $OUT"
OUT=$(tc top job busy --idle-window 1m 2>&1) || fail "top job busy --idle-window: $OUT"
expect_output "top job busy" "Idle/Allocated GPUs: 0/4 (under 5% for the last 1m)"
OUT=$(tc top node -d --idle-window 1m 2>&1) || fail "top node -d --idle-window: $OUT"
grep -Eq '^  [0-7] +0\.0% +[0-9.]+/16\.0 +default/idle-master-0 +yes$' <<<"$OUT" || fail "top node -d idle: $OUT"
[[ $(grep -cE ' default/busy-(master|worker)-0 +no$' <<<"$OUT") -eq 4 ]] || fail "top node -d busy: $OUT"
OUT=$(tc list --idle --idle-window 1m 2>&1) || fail "list --idle: $OUT"
grep -Eq '^idle +RUNNING +PYTORCHJOB +[^ ]+ +1 +1/1 +0\.0% ' <<<"$OUT" || fail "list --idle lacks idle: $OUT"
if grep -q '^busy ' <<<"$OUT"; then fail "list --idle lists the busy job: $OUT"; fi
echo "ok"
