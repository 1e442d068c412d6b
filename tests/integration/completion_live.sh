#!/usr/bin/env bash
# Live completion against kubesim: `trainctl __complete` lists the jobs, instances,
# namespaces, PVCs and nodes the cluster has, and the bash script offers them on TAB. With
# an unreachable server it prints nothing and still exits 0.
set -euo pipefail
SOURCE_DIR=${SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
KUBESIM_SEED="$SOURCE_DIR/tools/kubesim/seeds/demo.yaml" KUBESIM_SPEED=1 KUBESIM_SCHEMAS_OPTIONAL=1
source "$(dirname "$0")/kubesim_env.bash"
tmp="$WORK"
start_kubesim
export KUBECONFIG="$tmp/kubeconfig"
export TRAINCTL_CONFIG="$tmp/no-config.yaml"
: >"$TRAINCTL_CONFIG"

"$TRAINCTL" submit pytorch --name=mnist-live --workers=2 --image=pytorch/pytorch "python train.py" >/dev/null
"$TRAINCTL" submit mpi --name=hvd-live --workers=1 --image=horovod/horovod "mpirun hostname" >/dev/null

cands() { "$TRAINCTL" __complete "$@"; }
has() {  # has CANDIDATE WORDS...
  local want=$1; shift
  local out
  out=$(cands "$@")
  grep -qx -- "$want" <<<"$out" || fail "__complete $* did not offer $want; got: $out"
}

has mnist-live get ''
has hvd-live get ''
has hvd-live delete mnist-live ''
has ':4' get ''
[[ $(cands get mn) == $'mnist-live\n:4' ]] || fail "get mn: $(cands get mn)"
[[ $(cands get -T mpi '') == $'hvd-live\n:4' ]] || fail "get -T mpi: $(cands get -T mpi '')"
has default list -n ''
has training-data: submit pytorch --data ''
has cn-huhehaote.192.168.0.31 top node ''
# Instances: the training-operator emulation names pods NAME-master-0 and NAME-worker-I.
for _ in $(seq 100); do cands logs mnist-live -i '' | grep -qx mnist-live-master-0 && break; sleep 0.1; done
has mnist-live-master-0 logs mnist-live -i ''
has mnist-live-worker-0 logs mnist-live -i ''
has "$(sed -n 's/^current-context: *//p' "$tmp/kubeconfig" | tr -d '"')" --context ''

# The bash script hands the job names to TAB.
"$TRAINCTL" completion bash >"$tmp/trainctl.bash"
export PATH="$(cd "$(dirname "$TRAINCTL")" && pwd):$PATH"
got=$(bash --norc --noprofile -c '
  source "$0"
  COMP_WORDS=(trainctl get mnist); COMP_CWORD=2
  __trainctl_complete
  printf "%s\n" "${COMPREPLY[@]}"' "$tmp/trainctl.bash")
[[ $got == mnist-live ]] || fail "bash: trainctl get mnist<TAB> -> $got"

# Unreachable cluster: no candidates, no error output, exit 0.
kill "$KUBESIM_PID"; wait "$KUBESIM_PID" 2>/dev/null || true; KUBESIM_PID=
out=$(cands get '' 2>"$tmp/err") || fail "__complete failed without a cluster"
[[ $out == ':4' ]] || fail "without a cluster: $out"
[[ ! -s "$tmp/err" ]] || fail "without a cluster, stderr: $(cat "$tmp/err")"
echo PASS
