#!/usr/bin/env bash
# logs --all of a 64-replica PyTorchJob on kubesim against 64 parallel `kubectl logs -f`, one
# per pod (docs/performance.md, "logs --all"). Two scenarios:
#   closed: the job has ended; every replica's log (LINES lines each) is read to its end
#   live:   `logs -f --all` from the job's start until it ends (trainctl only), its lines
#           written at kubesim's pace
# Prints wall time, CPU (user+sys), peak RSS and lines/s. TRAINCTL and KUBESIM default to
# build/; kubectl from PATH. Usage: bench/logs_all.sh [LINES]   (default 20000)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
TRAINCTL=${TRAINCTL:-$src/build/trainctl}
KUBESIM=${KUBESIM:-$src/build/kubesim}
LINES=${1:-20000}
work=$(mktemp -d)
sim=""
trap '[[ -n $sim ]] && kill $sim 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
export NO_COLOR=1

cat >"$work/cluster.yaml" <<'YAML'
nodes:
  - {name: n1, ip: 10.0.0.1, gpus: 8, cpu: "256", memory: 1Ti, pods: 200}
  - {name: n2, ip: 10.0.0.2, gpus: 8, cpu: "256", memory: 1Ti, pods: 200}
namespaces: [default]
YAML
start() {  # start SPEED
  "$KUBESIM" --listen 127.0.0.1 --port 0 --kubeconfig-out "$work/kc" --seed "$work/cluster.yaml" --speed "$1" \
    >"$work/sim.log" 2>&1 &
  sim=$!
  for _ in $(seq 200); do grep -q listening "$work/sim.log" && return; sleep 0.05; done
  echo "kubesim did not start" >&2; exit 1
}
job() {  # job NAME DURATION: a Master and 63 Workers
  cat <<YAML | kubectl --kubeconfig "$work/kc" apply -f - >/dev/null
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: $1, namespace: default, annotations: {kubesim.trainctl.io/duration: $2}}
spec:
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      template:
        spec:
          containers: [{name: pytorch, image: p, command: [python, t.py], ports: [{name: pytorchjob-port, containerPort: 23456}]}]
    Worker:
      replicas: 63
      template:
        spec:
          containers: [{name: pytorch, image: p, command: [python, t.py]}]
YAML
}
pods_done() {  # pods_done NAME: every pod of the job has succeeded (the Master may end first)
  for _ in $(seq 1200); do
    [[ -z $(kubectl --kubeconfig "$work/kc" get pods -l "training.kubeflow.org/job-name=$1" \
      --field-selector=status.phase!=Succeeded -o name) ]] && return
    sleep 0.2
  done
  echo "the pods of $1 did not all succeed" >&2; exit 1
}
row() {  # row NAME WALL USER SYS RSS_MB LINES
  awk -v n="$1" -v w="$2" -v u="$3" -v s="$4" -v r="$5" -v l="$6" \
    'BEGIN { printf "| %-34s | %8.2f | %8.2f | %8.1f | %9d | %10.0f |\n", n, w, u + s, r, l, l / w }'
}
echo "| scenario                           |   wall s |  CPU s   |  RSS MB  |     lines |    lines/s |"
echo "|------------------------------------|----------|----------|----------|-----------|------------|"

# closed: LINES simulated seconds run in about one real second.
start "$LINES"
job closed "${LINES}s"
pods_done closed
/usr/bin/time -f "%e %U %S %M" -o "$work/tc.time" "$TRAINCTL" --kubeconfig "$work/kc" logs -f closed --all >"$work/tc.out"
read -r w u s m <"$work/tc.time"
row "trainctl logs -f --all (closed)" "$w" "$u" "$s" "$((m / 1024))" "$(wc -l <"$work/tc.out")"
# kubesim writes LINES lines per replica (its header lines included, then one numbered
# "step=N" line a simulated second) and, on success, "" and "accuracy=0.9904"
# (tools/kubesim/controllers/training_log.cpp final_lines): every one must be there. Each is
# unique once prefixed with its replica, so a lost line cannot hide behind a doubled one.
want=$((64 * (LINES + 2)))
got=$(wc -l <"$work/tc.out")
distinct=$(sort -u "$work/tc.out" | wc -l)
if [ "$distinct" -lt "$want" ]; then echo "bench: trainctl printed $distinct distinct lines of the closed logs, not $want" >&2; exit 1; fi
if [ "$got" -gt "$want" ]; then echo "bench: trainctl printed $got lines of the closed logs, $((got - want)) more than $want" >&2; fi
pods=$(kubectl --kubeconfig "$work/kc" get pods -l training.kubeflow.org/job-name=closed -o name)
start_ns=$(date +%s%N)
kpids=()
for p in $pods; do
  /usr/bin/time -f "%U %S %M" -o "$work/kc.${p#pod/}.time" kubectl --kubeconfig "$work/kc" logs -f "$p" --prefix >"$work/kc.${p#pod/}.out" 2>/dev/null &
  kpids+=($!)
done
wait "${kpids[@]}"
w=$(( ($(date +%s%N) - start_ns) / 1000000 ))
read -r u s m < <(cat "$work"/kc.*.time | awk '{u += $1; s += $2; m += $3} END {print u, s, m}')
row "64 x kubectl logs -f (closed)" "$(awk -v w=$w 'BEGIN{print w/1000}')" "$u" "$s" "$((m / 1024))" "$(cat "$work"/kc.*.out | wc -l)"
kill "$sim"; wait "$sim" 2>/dev/null || true; sim=""

# live: 300 simulated seconds at 100× (3 s), 64 lines per simulated second.
start 100
job live 300s
/usr/bin/time -f "%e %U %S %M" -o "$work/tcl.time" "$TRAINCTL" --kubeconfig "$work/kc" logs -f live --all >"$work/tcl.out"
read -r w u s m <"$work/tcl.time"
row "trainctl logs -f --all (live)" "$w" "$u" "$s" "$((m / 1024))" "$(wc -l <"$work/tcl.out")"
echo "(kubectl RSS: the sum of the 64 processes; live lines/s is kubesim's pace, not a limit)"
