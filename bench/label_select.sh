#!/usr/bin/env bash
# kubesim's CPU serving label-selected pod lists (docs/performance.md, "Labels beside each
# object"). kubesim serves a generated cluster without controllers; a Python client walks
# /api/v1/pods in pages of 500 with a label selector, RUNS times per selector, and kubesim's
# CPU (utime + stime of /proc/PID/stat, all its threads) is read before and after. Then the
# same for RUNS runs of `trainctl list -A`, whose pod lists are label-selected by job-name label.
#
#   bench/label_select.sh [--gen nodes=N,jobs=N,pods=N[,objects=real]] [--runs N] [--build-dir DIR] [--keep]
#
# Environment: TRAINCTL, KUBESIM (use these binaries instead of building).
set -euo pipefail
source "$(dirname "$0")/gen_args.bash"
source "$here/common.bash"

start_sim labels --no-controllers --generate "$gen"
# cpu_ms: kubesim's CPU so far, in ms.
cpu_ms() { awk -v hz="$(getconf CLK_TCK)" '{ print int(($14 + $15) * 1000 / hz) }' "/proc/$sim_pid/stat"; }

walk() {
  /usr/bin/python3 - "$1" "$runs" <<'PY'
import json, sys
from kubernetes import client, config
config.load_kube_config()
api = client.CoreV1Api()
n = 0
for _ in range(int(sys.argv[2])):
    token = None
    while True:
        r = api.list_pod_for_all_namespaces(label_selector=sys.argv[1], limit=500, _continue=token,
                                            _preload_content=False)
        page = json.loads(r.data)
        n += len(page["items"])
        token = page["metadata"].get("continue")
        if not token:
            break
print(n // int(sys.argv[2]))
PY
}

printf '| what (%s, %s runs) | items a run | kubesim CPU a run | wall a run |\n|---|---|---|---|\n' "$gen" "$runs"
for sel in training.kubeflow.org/job-name training.kubeflow.org/job-name=no-such-job; do
  c0=$(cpu_ms) t0=$(date +%s%N)
  items=$(walk "$sel")
  c1=$(cpu_ms) t1=$(date +%s%N)
  printf '| pods -l %s | %s | %d ms | %d ms |\n' "$sel" "$items" $(((c1 - c0) / runs)) $(((t1 - t0) / 1000000 / runs))
done
c0=$(cpu_ms) t0=$(date +%s%N)
for ((r = 0; r < runs; r++)); do "$TRAINCTL" list -A >/dev/null; done
c1=$(cpu_ms) t1=$(date +%s%N)
printf '| trainctl list -A | - | %d ms | %d ms |\n' $(((c1 - c0) / runs)) $(((t1 - t0) / 1000000 / runs))
