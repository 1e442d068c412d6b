#!/usr/bin/env bash
# `logs --all` against kubesim: a PyTorchJob of a Master and two Workers whose containers
# crash and restart (outcome crash, restartPolicy OnFailure). `logs -f --all` follows all
# three until the job ends and shows every replica's lines exactly once and in order, across
# the Workers' restarts; --role/--rank choose replicas and --prefix=false drops the prefix.
# What each log must hold comes from kubesim's log generator
# (tools/kubesim/controllers/training_log.h, docs/kubesim.md): a training container writes
# "WORLD_SIZE: 3, CURRENT_RANK: R", "args: Namespace(...)", "Using CUDA", then one progress
# line per simulated second ending in "step=N", N being the line's number in the log, up to
# N = duration / 1 s; then "" and "accuracy=0.9904" on success, or "Traceback (most recent
# call last):" and "RuntimeError: NCCL communicator was aborted on rank R." on a crash. R is
# the RANK the operator sets: 0 for the Master, index + 1 for Worker index.
set -euo pipefail
KUBESIM_SPEED=10
source "$(dirname "$0")/kubesim_env.bash"
command -v kubectl >/dev/null || skip_or_fail "kubectl is not on PATH"
start_kubesim

cat >"$WORK/job.yaml" <<'YAML'
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: mixed, namespace: default}
spec:
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      restartPolicy: OnFailure
      template:
        metadata:
          annotations: {kubesim.trainctl.io/outcome: succeed, kubesim.trainctl.io/duration: 60s}
        spec:
          containers:
          - {name: pytorch, image: pytorch/pytorch:2.1, command: [python, train.py],
             ports: [{name: pytorchjob-port, containerPort: 23456}]}
    Worker:
      replicas: 2
      restartPolicy: OnFailure
      template:
        metadata:
          annotations: {kubesim.trainctl.io/outcome: crash, kubesim.trainctl.io/duration: 20s}
        spec:
          containers:
          - {name: pytorch, image: pytorch/pytorch:2.1, command: [python, train.py]}
YAML
kubectl --kubeconfig "$KCFG" apply -f "$WORK/job.yaml" >/dev/null || fail "kubectl apply"

# check_log FILE PREFIX RANK OUTCOME: the lines of FILE that start with PREFIX (all when
# PREFIX is "") are the log of a container of rank RANK, run after run: each run is the
# header, steps 4.. in order, then the end of OUTCOME (succeed: 60 s; crash: 20 s, then the
# next run). A crash log may stop inside its last run (the job ended). Prints the runs seen.
check_log() {
  awk -v prefix="$2" -v rank="$3" -v outcome="$4" '
    function bad(why) { printf "line %d: %s: %s\n", NR, why, $0; err = 1; exit 1 }
    BEGIN { state = "H"; runs = 0; last = outcome == "succeed" ? 60 : 20 }
    {
      if (prefix != "") { if (index($0, prefix) != 1) next; t = substr($0, length(prefix) + 1) } else t = $0
      if (state == "H") { if (t != "WORLD_SIZE: 3, CURRENT_RANK: " rank) bad("want the header"); state = "A"; next }
      if (state == "A") { if (index(t, "args: Namespace(") != 1) bad("want args"); state = "U"; next }
      if (state == "U") { if (t != "Using CUDA") bad("want Using CUDA"); state = "P"; step = 4; next }
      if (state == "P" && t ~ / step=[0-9]+$/) {
        n = t; sub(/.* step=/, "", n)
        if (n + 0 != step || step > last) bad("want step=" step); step++; next
      }
      if (state == "P" && step == last + 1 && outcome == "crash") {
        if (t != "Traceback (most recent call last):") bad("want the traceback"); state = "R"; next
      }
      if (state == "P" && step == last + 1) { if (t != "") bad("want an empty line"); state = "Z"; next }
      if (state == "R") { if (t != "RuntimeError: NCCL communicator was aborted on rank " rank ".") bad("want the error"); runs++; state = "H"; next }
      if (state == "Z") { if (t != "accuracy=0.9904") bad("want accuracy"); runs++; state = "E"; next }
      bad("unexpected line in state " state)
    }
    END { if (err) exit 1; if (outcome == "succeed" && state != "E") { print "incomplete log"; exit 1 } print runs }
  ' "$1"
}

for _ in $(seq 100); do tc logs mixed >/dev/null 2>&1 && break; sleep 0.1; done
set +e
timeout 120 "$TRAINCTL" --kubeconfig "$KCFG" logs -f mixed --all >"$WORK/all.out" 2>"$WORK/all.err"
rc=$?
set -e
[[ $rc == 0 ]] || fail "logs -f --all exited $rc: $(cat "$WORK/all.err")"
runs=$(check_log "$WORK/all.out" "[master-0] " 0 succeed) || fail "master-0 in logs -f --all: $runs"
[[ $runs == 1 ]] || fail "master-0 ran $runs times"
for i in 0 1; do
  runs=$(check_log "$WORK/all.out" "[worker-$i] " $((i + 1)) crash) || fail "worker-$i in logs -f --all: $runs"
  ((runs >= 2)) || fail "worker-$i: $runs crashed runs followed, want a restart followed through"
done
other=$(grep -cvE '^\[(master-0|worker-0|worker-1)\] ' "$WORK/all.out" || true)
[[ $other == 0 ]] || fail "$other lines without a replica prefix"
tc get mixed | grep -q "^Status:      SUCCEEDED$" || fail "the job did not succeed"

# Without -f: each replica's log in turn, the chief first.
OUT=$(tc logs mixed --all)
[[ $(head -n 1 <<<"$OUT") == "[master-0] WORLD_SIZE: 3, CURRENT_RANK: 0" ]] || fail "logs --all does not start with the master: $(head -n 3 <<<"$OUT")"
check_log <(printf '%s\n' "$OUT") "[master-0] " 0 succeed >/dev/null || fail "master-0 in logs --all"
grep -q '^\[worker-1\] ' <<<"$OUT" || fail "logs --all lacks worker-1"

# --role/--rank and --prefix=false: worker 1 alone, lines as the log has them.
tc logs mixed --role worker --rank 1 --prefix=false >"$WORK/w1.out"
grep -q '^\[' "$WORK/w1.out" && fail "--prefix=false still prefixes"
check_log "$WORK/w1.out" "" 2 crash >/dev/null || fail "worker-1 alone: its current run is not whole and in order"
[[ $(head -n 1 "$WORK/w1.out") == "WORLD_SIZE: 3, CURRENT_RANK: 2" ]] || fail "--role worker --rank 1: $(head -n 2 "$WORK/w1.out")"
grep -q "CURRENT_RANK: [01]\|on rank [01]\." "$WORK/w1.out" && fail "--rank 1 shows another worker's lines"
OUT=$(tc logs mixed --all --role master)
[[ $(grep -vc '^\[master-0\] ' <<<"$OUT" || true) == 0 ]] || fail "--role master shows other replicas"
[[ $(wc -l <<<"$OUT") == 62 ]] || fail "--role master: $(wc -l <<<"$OUT") lines, want 62 (3 header, steps 4-60, 2 final)"
echo "ok: logs --all shows every replica's lines once, in order, through restarts"
