# Shared by bench/run.sh and bench/memory.sh (sourced, with src, build and keep set):
# builds Release trainctl + kubesim unless TRAINCTL and KUBESIM are given, compiles
# bench/measure.c, makes the work directory ($work, removed on exit unless keep=1) and
# defines start_sim NAME ARGS... / stop_sim.
here=${here:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)}

# --- binaries ---------------------------------------------------------------------------
if [ -z "${TRAINCTL:-}" ] || [ -z "${KUBESIM:-}" ]; then
  echo "bench: building Release trainctl and kubesim in $build" >&2
  # GCC 12 reports false -Wrestrict/-Wstringop-overflow/-Warray-bounds positives inside
  # std::string at -O3 (GCC bug 105651), and -Wformat-truncation for snprintf into buffers
  # sized for every real value; they are not errors of this code.
  cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS="-Wno-restrict -Wno-stringop-overflow -Wno-array-bounds -Wno-format-truncation" >/dev/null
  make -C "$build" -j2 trainctl kubesim >/dev/null
  TRAINCTL=${TRAINCTL:-$build/trainctl}
  KUBESIM=${KUBESIM:-$build/kubesim}
  [ -x "$KUBESIM" ] || KUBESIM=$(find "$build" -type f -name kubesim -perm -u+x | head -1)
fi
mkdir -p "$build/bench"
MEASURE=$build/bench/measure
if [ ! -x "$MEASURE" ] || [ "$here/measure.c" -nt "$MEASURE" ]; then
  cc -O2 -Wall -o "$MEASURE" "$here/measure.c"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/trainctl-bench.XXXXXX")
sim_pid=""
cleanup() {
  if [ -n "$sim_pid" ]; then kill "$sim_pid" 2>/dev/null || true; wait "$sim_pid" 2>/dev/null || true; fi
  if [ "$keep" = 1 ]; then echo "bench: results kept in $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
mkdir -p "$work/stats" "$work/kcache"
export NO_COLOR=1

# --- kubesim ------------------------------------------------------------------------------
# start_sim NAME ARGS...: starts kubesim on 127.0.0.1 and exports KUBECONFIG for it.
start_sim() {
  local name=$1; shift
  stop_sim
  local kc=$work/$name.kubeconfig t0=$SECONDS
  "$KUBESIM" --listen 127.0.0.1 --port 0 --kubeconfig-out "$kc" "$@" >"$work/$name.out" 2>&1 &
  sim_pid=$!
  until grep -q "listening on" "$work/$name.out" 2>/dev/null; do
    if ! kill -0 "$sim_pid" 2>/dev/null; then cat "$work/$name.out" >&2; sim_pid=""; return 1; fi
    if [ $((SECONDS - t0)) -gt 300 ]; then echo "bench: kubesim did not start" >&2; return 1; fi
    sleep 0.2
  done
  export KUBECONFIG=$kc
  echo "bench: kubesim '$name' ready in $((SECONDS - t0)) s ($(grep -h generated "$work/$name.out" | sed 's/^kubesim: //'))" >&2
}
stop_sim() {
  if [ -n "$sim_pid" ]; then kill "$sim_pid" 2>/dev/null || true; wait "$sim_pid" 2>/dev/null || true; fi
  sim_pid=""
}
