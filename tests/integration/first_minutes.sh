#!/usr/bin/env bash
# What a new user meets in the first minutes, against kubesim's demo cluster over HTTPS, with
# kubectl reading the same objects:
# - a mistyped command or flag gets cobra's "Did you mean this?" (kubectl's words);
# - data list shows the demo PVC's description and owner, the annotations kubectl reads there;
# - -i takes the start of an operator-free pod's name (bad-1 for bad-1-xxxxx), its replica or
#   its rank, and an error that lists instances prints them one a line, not as "\x0a";
# - logs --all shows each rank's own lines (its RANK, as kubectl logs shows the pod's).
set -euo pipefail
SOURCE_DIR=${SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
KUBESIM_SEED="$SOURCE_DIR/tools/kubesim/seeds/demo.yaml" KUBESIM_SPEED=10
source "$(dirname "$0")/kubesim_env.bash"
command -v kubectl >/dev/null || skip_or_fail "kubectl is not on PATH"
start_kubesim --default-duration 30m
k() { kubectl --kubeconfig "$KCFG" "$@"; }
# run_err NAME ARGS...: runs trainctl ARGS, expecting a failure; stderr in $WORK/NAME.err, rc in $rc.
run_err() {
  local name=$1
  shift
  set +e
  tc "$@" >"$WORK/$name.out" 2>"$WORK/$name.err"
  rc=$?
  set -e
}

# 1. Typos.
run_err lst lst
[[ $rc == 2 ]] || fail "trainctl lst exited $rc, want 2 (usage)"
printf 'error: unknown command "lst" for "trainctl"\n\nDid you mean this?\n\tlist\n\tget\n\tlogs\n\nRun '"'"'trainctl --help'"'"' for usage.\n' >"$WORK/lst.want"
cmp -s "$WORK/lst.want" "$WORK/lst.err" || fail "trainctl lst: $(diff "$WORK/lst.want" "$WORK/lst.err")"
run_err tial logs pytorch-dist --tial 5
[[ $rc == 2 ]] || fail "logs --tial exited $rc, want 2"
grep -qxF $'\t--tail' "$WORK/tial.err" || fail "logs --tial suggests no --tail: $(cat "$WORK/tial.err")"
grep -qxF 'error: unknown flag: --tial' "$WORK/tial.err" || fail "logs --tial: $(cat "$WORK/tial.err")"

# 2. data list: the columns hold the PVC's annotations, as kubectl reads them.
desc=$(k get pvc training-data -o 'jsonpath={.metadata.annotations.description}')
owner=$(k get pvc training-data -o 'jsonpath={.metadata.annotations.owner}')
[[ -n $desc && -n $owner ]] || fail "kubectl reads no description/owner annotations on the demo PVC"
row=$(tc data list | grep '^training-data ')
[[ $row =~ ^training-data\ +ReadWriteMany\ +"$desc"\ +"$owner"\ +[0-9]+[smhd]$ ]] ||
  fail "data list row: $row (want \"$desc\" and \"$owner\")"

# 3. An operator-free job of three ranks.
tc submit pytorch --name=bad --operator none --workers=3 --image=pytorch/pytorch \
  "python /root/code/mnist-pytorch/mnist.py --epochs 10 --backend nccl" >/dev/null
for _ in $(seq 300); do
  [[ $(k get pods -l job-name=bad -o 'jsonpath={range .items[*]}{.status.phase}{"\n"}{end}' | grep -c Running) == 3 ]] && break
  sleep 0.1
done
pod_of() { k get pods -l job-name=bad,batch.kubernetes.io/job-completion-index="$1" -o 'jsonpath={.items[0].metadata.name}'; }
p0=$(pod_of 0) p1=$(pod_of 1) p2=$(pod_of 2)
[[ $p1 == bad-1-* ]] || fail "no pod bad-1-*: $p1"
# The training script's first line (before it, the rendezvous may have logged its retries).
header() { grep -m1 '^WORLD_SIZE' || true; }
for _ in $(seq 200); do [[ $(k logs "$p2" | grep -c 'step=') -ge 10 ]] && break; sleep 0.1; done

# Each rank's RANK is its completion index (the downward API), as the script prints it.
for i in 0 1 2; do
  pod=$(pod_of $i)
  [[ $(k logs "$pod" | header) == "WORLD_SIZE: 3, CURRENT_RANK: $i" ]] || fail "$pod: $(k logs "$pod" | head -3)"
done
# -i: the start of the name, the replica, the rank; each is the pod kubectl reads (its header
# names its rank). The replica of rank 1 is worker-1, the pod of completion index 2.
for pair in bad-1:"$p1" worker-0:"$p1" 1:"$p2" "$p0":"$p0"; do
  wanted=${pair%%:*} pod=${pair#*:}
  [[ $(tc logs bad -i "$wanted" | header) == "$(k logs "$pod" | header)" ]] || fail "logs bad -i $wanted is not $pod's log"
done

# Errors that list instances: one a line, with the replica; nothing escaped but what must be.
run_err none logs bad -i bad-7
[[ $rc == 3 ]] || fail "logs -i bad-7 exited $rc, want 3"
printf 'error: job bad has no instance bad-7; its instances are:\n  %s  master-0 (chief)\n  %s  worker-0\n  %s  worker-1\n' \
  "$p0" "$p1" "$p2" >"$WORK/none.want"
cmp -s "$WORK/none.want" "$WORK/none.err" || fail "logs -i bad-7: $(diff "$WORK/none.want" "$WORK/none.err")"
run_err two logs bad -i 0
[[ $rc == 2 ]] || fail "logs -i 0 exited $rc, want 2"
printf 'error: -i 0 matches 2 instances of job bad; choose one of:\n  %s  master-0 (chief)\n  %s  worker-0\n' \
  "$p0" "$p1" >"$WORK/two.want"
cmp -s "$WORK/two.want" "$WORK/two.err" || fail "logs -i 0: $(diff "$WORK/two.want" "$WORK/two.err")"
grep -qF '\x0a' "$WORK"/*.err && fail "an error printed its own line breaks as \\x0a"

# 4. logs --all: every rank prefixed, each with its own header and its own losses.
all=$(tc logs bad --all)
for r in 0 1 2; do
  label=$([[ $r == 0 ]] && echo master-0 || echo "worker-$((r - 1))")
  grep -qxF "[$label] WORLD_SIZE: 3, CURRENT_RANK: $r" <<<"$all" || fail "logs --all lacks $label's header"
done
# The same step on every rank: the same batch, three losses.
same=$(grep -E 'Train Epoch: .* step=8$' <<<"$all")
[[ $(wc -l <<<"$same") == 3 ]] || fail "step 8 is not on every rank: $same"
[[ $(sed 's/^\[[^]]*\] //; s/ loss=.*//' <<<"$same" | sort -u | wc -l) == 1 ]] || fail "the ranks are at different batches: $same"
[[ $(sed 's/.* loss=//' <<<"$same" | sort -u | wc -l) == 3 ]] || fail "the ranks log the same loss: $same"
echo "ok: suggestions, data list, -i by prefix, replica and rank, errors one a line, every rank's own log"
