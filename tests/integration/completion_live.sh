#!/usr/bin/env bash
# Live completion against kubesim: `trainctl __complete` lists the jobs, instances,
# namespaces, PVCs and nodes the cluster has, and the bash script offers them on TAB. With
# an unreachable server it prints nothing and still exits 0.
set -euo pipefail
if [[ ! -x "${TRAINCTL:-}" || ! -x "${KUBESIM:-}" ]]; then
  echo "skipped: TRAINCTL and KUBESIM must point to the built binaries"
  exit 77
fi
SOURCE_DIR=${SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d)
kubesim_pid=
cleanup() {
  if [[ -n "$kubesim_pid" ]]; then kill "$kubesim_pid" 2>/dev/null || true; wait "$kubesim_pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

schema_args=()
for d in "${TRAINCTL_SCHEMAS:-}" "$SOURCE_DIR/../shared/k8s-schemas"; do
  if [[ -n "$d" && -d "$d/crds" ]]; then schema_args=(--schemas "$d"); break; fi
done
"$KUBESIM" --listen 127.0.0.1 --port 0 --kubeconfig-out "$tmp/kubeconfig" \
  --seed "$SOURCE_DIR/tools/kubesim/seeds/demo.yaml" "${schema_args[@]}" >"$tmp/kubesim.log" 2>&1 &
kubesim_pid=$!
for _ in $(seq 200); do [[ -s "$tmp/kubeconfig" ]] && break; sleep 0.05; done
[[ -s "$tmp/kubeconfig" ]] || { cat "$tmp/kubesim.log"; fail "kubesim did not start"; }
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
kill "$kubesim_pid"; wait "$kubesim_pid" 2>/dev/null || true; kubesim_pid=
out=$(cands get '' 2>"$tmp/err") || fail "__complete failed without a cluster"
[[ $out == ':4' ]] || fail "without a cluster: $out"
[[ ! -s "$tmp/err" ]] || fail "without a cluster, stderr: $(cat "$tmp/err")"
echo PASS
