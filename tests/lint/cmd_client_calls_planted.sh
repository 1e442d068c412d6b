#!/usr/bin/env bash
# The lint cmd_client_calls.sh checks something: on a copy of cmd/ and lib/kube's headers it
# passes, and each planted call of the client from cmd/ (a Client method, a lib/kube request
# function, lib/kube's names brought in unqualified) makes it fail, naming the line.
set -euo pipefail
src=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
lint="$(dirname "$0")/cmd_client_calls.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fresh() {
  rm -rf "$work/tree" && mkdir -p "$work/tree/lib/kube"
  cp -r "$src/cmd" "$work/tree/cmd"
  cp "$src"/lib/kube/*.h "$work/tree/lib/kube/"
}
fresh
bash "$lint" "$work/tree" >/dev/null || { echo "the lint fails on an unchanged copy of cmd/" >&2; exit 1; }
planted=(
  '  f.client().send_all({});'
  '  auto j = kube::get_object(f.client(), kube::pods(), "ns", "name");'
  'using namespace trainctl::kube;'
)
for line in "${planted[@]}"; do
  fresh
  printf '%s\n' "$line" >>"$work/tree/cmd/get.cpp"
  if out=$(bash "$lint" "$work/tree" 2>&1); then
    echo "the lint passes with a planted client call in cmd/get.cpp: $line" >&2
    exit 1
  fi
  grep -qF "cmd/get.cpp:" <<<"$out" || { echo "the lint failed without naming the planted line: $out" >&2; exit 1; }
done
echo "ok: the lint fails on each of ${#planted[@]} planted client calls and passes without them"
