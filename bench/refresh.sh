#!/usr/bin/env bash
# What a refresh of a live view costs against reading the cluster again (docs/performance.md,
# "Live views"): on the top node cluster of bench/run.sh (full: 5,000 nodes, 10,000 jobs,
# 150,000 pods), `top node -r 1` and `list -A -w` are started, then 100 changes are made (100
# new GPU pods bound to nodes; 100 PyTorchJobs annotated), and the CPU each live view spent
# from the change to its updated output is compared with a one-shot `top node` / `list -A`.
#
#   bench/refresh.sh [--scale small|full] [--build-dir DIR] [--keep]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(dirname "$here")
scale=full build="$src/build-bench" keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --scale) scale=$2; shift 2 ;;
    --build-dir) build=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    *) echo "bench: unknown argument $1" >&2; exit 2 ;;
  esac
done
case "$scale" in
  small) gen=nodes=200,jobs=500,pods=3000 ;;
  full) gen=nodes=5000,jobs=10000,pods=150000 ;;
  *) echo "bench: --scale must be small or full" >&2; exit 2 ;;
esac
source "$here/common.bash"
K=kubectl
tick=$(getconf CLK_TCK)

# cpu_ms PID: user+system CPU the process has used so far, in ms.
cpu_ms() { awk -v t="$tick" '{print int(($14 + $15) * 1000 / t)}' "/proc/$1/stat"; }
rss_mb() { awk '/VmHWM/ {printf "%.1f", $2 / 1024}' "/proc/$1/status"; }
now_ms() { date +%s%3N; }
# wait_for FILE PATTERN COUNT: until FILE has COUNT lines matching PATTERN (5 min at most).
wait_for() {
  local t0=$SECONDS
  local n
  for (( ; ; )); do
    n=$(grep -cE "$2" "$1" 2>/dev/null || true)
    [ "${n:-0}" -lt "$3" ] || break
    [ $((SECONDS - t0)) -lt 300 ] || { echo "bench: timed out waiting for $2 in $1" >&2; exit 1; }
    sleep 0.05
  done
}
# once NAME ARGS...: a one-shot run's wall ms and CPU ms (user + system).
once() {
  local name=$1; shift
  "$MEASURE" "$work/$name.stats" "$TRAINCTL" "$@" >/dev/null
  awk '{printf "%d %d\n", $1, $2 + $3}' "$work/$name.stats"
}

start_sim refresh --no-controllers --generate "$gen"
# 100 nodes with GPUs, one new pod on each.
nodes=$("$TRAINCTL" top node -o json | python3 -c '
import json, sys
print("\n".join([n["name"] for n in json.load(sys.stdin) if n["totalGPUs"] > 0][:100]))')
gpu_pods() {
  local i=0
  for n in $nodes; do
    cat <<YAML
---
apiVersion: v1
kind: Pod
metadata: {name: refresh-$i, namespace: default}
spec:
  nodeName: $n
  containers: [{name: c, image: x, resources: {limits: {nvidia.com/gpu: "1"}}}]
YAML
    i=$((i + 1))
  done
}

printf '| view | first view: wall ms | CPU ms | refresh after 100 changes: wall ms | CPU ms | one-shot read: wall ms | CPU ms | refresh / one-shot CPU | peak RSS MB |\n'
printf '|---|---|---|---|---|---|---|---|---|\n'

# top node -r 1
full=$(once topnode top node)
t0=$(now_ms)
"$TRAINCTL" top node -r 1 >"$work/top.txt" 2>"$work/top.err" &
pid=$!
wait_for "$work/top.txt" '^Allocated/Total' 1
first_wall=$(($(now_ms) - t0)) first_cpu=$(cpu_ms $pid)
sleep 2
before=$(cpu_ms $pid) t1=$(now_ms)
gpu_pods | $K apply -f - >/dev/null
wait_for "$work/top.txt" '^Allocated/Total' 2
refresh_wall=$(($(now_ms) - t1)) refresh_cpu=$(($(cpu_ms $pid) - before)) rss=$(rss_mb $pid)
kill -TERM $pid; wait $pid 2>/dev/null || true
read -r fw fc <<<"$full"
printf '| top node -r 1 | %s | %s | %s (incl. kubectl apply) | %s | %s | %s | %s | %s |\n' "$first_wall" "$first_cpu" \
  "$refresh_wall" "$refresh_cpu" "$fw" "$fc" "$(awk -v a="$refresh_cpu" -v b="$fc" 'BEGIN{printf "%.3f", a / b}')" "$rss"

# list -A -w
full=$(once list list -A)
$K get pytorchjobs -A --no-headers -o custom-columns=NS:.metadata.namespace,NAME:.metadata.name |
  awk 'NR <= 100' >"$work/jobs.txt"
t0=$(now_ms)
"$TRAINCTL" list -A -w >"$work/list.txt" 2>"$work/list.err" &
pid=$!
wait_for "$work/list.txt" '^NAME' 1
sleep 0.5
first_wall=$(($(now_ms) - t0)) first_cpu=$(cpu_ms $pid)
lines=$(wc -l <"$work/list.txt")
sleep 2
before=$(cpu_ms $pid) t1=$(now_ms)
for ns in $(awk '{print $1}' "$work/jobs.txt" | sort -u); do
  # shellcheck disable=SC2046
  $K annotate -n "$ns" pytorchjobs $(awk -v ns="$ns" '$1 == ns {print $2}' "$work/jobs.txt") bench/refresh=1 >/dev/null
done
wait_for "$work/list.txt" '.' $((lines + 100))
refresh_wall=$(($(now_ms) - t1)) refresh_cpu=$(($(cpu_ms $pid) - before)) rss=$(rss_mb $pid)
kill -TERM $pid; wait $pid 2>/dev/null || true
read -r fw fc <<<"$full"
printf '| list -A -w | %s | %s | %s (incl. kubectl annotate) | %s | %s | %s | %s | %s |\n' "$first_wall" "$first_cpu" \
  "$refresh_wall" "$refresh_cpu" "$fw" "$fc" "$(awk -v a="$refresh_cpu" -v b="$fc" 'BEGIN{printf "%.3f", a / b}')" "$rss"
