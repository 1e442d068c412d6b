#!/usr/bin/env bash
# The other exporter shapes, judged by a real Prometheus (prometheus_real.bash): Arena's GPU
# exporter (nvidia_gpu_* in bytes, pod_name/node_name, which honor_labels leaves alone), MIG
# devices under dcgm-exporter scraped with honor_labels: true (the job's pod stays `pod`;
# GR_ENGINE_ACTIVE instead of GPU_UTIL), and dcgm-exporter before 3.1.6, whose Hostname is
# the exporter pod's own name.
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
command -v kubectl >/dev/null || skip_or_fail "kubectl not found"
source "$(dirname "$0")/prometheus_real.bash"

wait_rows() {  # wait_rows COUNT REGEX ARGS...: the output of tc ARGS once it has COUNT rows matching
  local count=$1 re=$2
  shift 2
  for _ in $(seq 100); do
    OUT=$(tc "$@" 2>&1) || fail "$*: $OUT"
    [[ $(grep -cE "$re" <<<"$OUT") -eq $count ]] && return 0
    sleep 0.1
  done
  fail "$* lacks its $count rows: $OUT"
}

# Arena's exporter: memory in bytes (shown in MiB), utilisation in percent.
start_real_prometheus arena false --default-outcome run-forever
OUT=$(tc submit pytorch --name=busy --gpus=2 --image=pytorch/pytorch:2.3 "python train.py" 2>&1) || fail "submit: $OUT"
# The sparklines need a step of the range query at or after a GPU's first sample.
wait_rows 2 '^busy-master-0 +[0-7] +[+*# ]*[+*#] +(7[0-9]|8[0-9]|9[0-9])\.0% ' top job busy --idle-window 1m
[[ $(grep -cE '^busy-master-0 +Running +2 +[^ ]+ +[0-7] +(7[0-9]|8[0-9]|9[0-9])\.0% +9830\.[0-9]/16384\.0\(MiB\) +no$' \
  <<<"$OUT") -eq 2 ]] || fail "arena GPU rows: $OUT"
OUT=$(prom_query 'nvidia_gpu_memory_total_bytes{pod_name="busy-master-0"}') || fail "arena query: $OUT"
python3 - "$OUT" <<'PY' || fail "arena series: $OUT"
import json, sys
result = json.loads(sys.argv[1])["data"]["result"]
assert len(result) == 2, result
for s in result:
    m = s["metric"]
    assert m["namespace_name"] == "default" and m["allocate_mode"] == "exclusive" and m["minor_number"], m
    assert m["node_name"] in ("gpu-a", "gpu-b", "topo-a") and m["instance"].endswith(":9445"), m
    assert s["value"][1] == str(16 * 2**30), s
PY

# MIG, honor_labels: true: two A100s as fourteen 1g.5gb devices.
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
KUBESIM_SEED="$WORK/mig.yaml" start_real_prometheus dcgm true --default-outcome run-forever
OUT=$(tc submit pytorch --name=mig --gpus=2 --image=pytorch/pytorch:2.3 "python train.py" 2>&1) || fail "submit mig: $OUT"
wait_rows 2 '^mig-master-0 +0/mig-[01] +[+*# ]*[+*#] ' top job mig --idle-window 1m
[[ $(grep -cE '^mig-master-0 +Running +2 +mig-a +0/mig-[01] +(7[0-9]|8[0-9]|9[0-9])\.0% +3072\.0/5120\.0\(MiB\) +no$' \
  <<<"$OUT") -eq 2 ]] || fail "MIG GPU rows: $OUT"
OUT=$(prom_query 'DCGM_FI_PROF_GR_ENGINE_ACTIVE{pod="mig-master-0"}') || fail "MIG query: $OUT"
python3 - "$OUT" <<'PY' || fail "MIG series: $OUT"
import json, sys
result = json.loads(sys.argv[1])["data"]["result"]
assert sorted(s["metric"]["GPU_I_ID"] for s in result) == ["0", "1"], result
for s in result:
    m = s["metric"]
    assert m["GPU_I_PROFILE"] == "1g.5gb" and m["gpu"] == "0" and m["namespace"] == "default", m
    assert "exported_pod" not in m and 0.7 <= float(s["value"][1]) <= 0.99, s
PY
OUT=$(tc top node -d 2>&1) || fail "top node -d (MIG): $OUT"
[[ $(grep -cE '^  [01]/mig-[0-6] ' <<<"$OUT") -eq 14 ]] || fail "top node -d lacks the 14 MIG devices: $OUT"

# dcgm-exporter before 3.1.6: Hostname is the exporter pod's name, not the node's.
start_real_prometheus dcgm-before-3.1.6 false --default-outcome run-forever
OUT=$(prom_query 'DCGM_FI_DEV_GPU_UTIL') || fail "old exporter query: $OUT"
python3 - "$OUT" <<'PY' || fail "old exporter series: $OUT"
import json, sys
result = json.loads(sys.argv[1])["data"]["result"]
assert len(result) == 24, len(result)
for s in result:
    m = s["metric"]
    assert m["Hostname"] == m["pod"] and m["Hostname"].startswith("nvidia-dcgm-exporter-"), m
PY
echo "ok"
