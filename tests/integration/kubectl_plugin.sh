#!/usr/bin/env bash
# trainctl as a kubectl plugin, installed as `cmake --install` installs it (kubectl-trainctl and
# kubectl_complete-trainctl beside trainctl) and found by the real kubectl through PATH:
# `kubectl trainctl ...` runs it, and kubectl's own completion of `kubectl trainctl ...`
# (kubectl 1.26 and later: k8s.io/kubectl pkg/cmd/plugin/plugin_completion.go) asks
# kubectl_complete-trainctl, which answers as `trainctl __complete` does.
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
KUBECTL=$(command -v kubectl || true)
[[ -n "$KUBECTL" ]] || skip_or_fail "kubectl not found"
# The dispatching kubectl of the Google Cloud SDK prints its own line first; take the version line.
minor=$("$KUBECTL" version --client -o json 2>/dev/null | jq -r '.clientVersion.minor' | tr -dc 0-9)
[[ -n "$minor" ]] || skip_or_fail "cannot read kubectl's version"
((minor >= 26)) || skip_or_fail "kubectl 1.$minor has no plugin completion (1.26 and later have)"

DESTDIR="$WORK/root" cmake --install "$(dirname "$TRAINCTL")" --prefix /usr --component trainctl >/dev/null ||
  fail "cmake --install"
bin="$WORK/root/usr/bin"
[[ $(readlink "$bin/kubectl-trainctl") == trainctl && $(readlink "$bin/kubectl_complete-trainctl") == trainctl ]] ||
  fail "the plugin links: $(ls -l "$bin")"
export PATH="$bin:$PATH"

OUT=$("$KUBECTL" plugin list 2>&1 || true)
expect_output "plugin list" "$bin/kubectl-trainctl"
OUT=$("$KUBECTL" trainctl version --short 2>&1) || fail "kubectl trainctl version: $OUT"
[[ $OUT == $("$TRAINCTL" version --short) ]] || fail "kubectl trainctl version --short says $OUT"
OUT=$("$KUBECTL" trainctl --help 2>&1) || fail "kubectl trainctl --help: $OUT"
expect_output "help" "kubectl trainctl [OPTIONS] SUBCOMMAND"

# Against a cluster: kubectl hands the plugin its environment (KUBECONFIG).
start_kubesim --default-outcome run-forever
export KUBECONFIG="$KCFG"
OUT=$(tc submit pytorch --name=plugged --image=img --workers=2 "python train.py" 2>&1) || fail "submit: $OUT"
OUT=$("$KUBECTL" trainctl list 2>&1) || fail "kubectl trainctl list: $OUT"
grep -qE '^plugged +[A-Z]+ +PYTORCHJOB' <<<"$OUT" || fail "kubectl trainctl list: $OUT"

# kubectl's completion: subcommands, flags, and live job names from the cluster.
complete_words() { "$KUBECTL" __complete trainctl "$@" 2>/dev/null; }
OUT=$(complete_words "")
expect_output "subcommands" "doctor"
expect_output "subcommands" "submit"
OUT=$(complete_words get "")
grep -q '^plugged' <<<"$OUT" || fail "kubectl __complete trainctl get '' does not offer the job: $OUT"
[[ $(tail -n1 <<<"$OUT") == :4 ]] || fail "directive: $(tail -n1 <<<"$OUT")"
OUT=$(complete_words doctor --ou)
expect_output "flags" "--output"
echo "ok"
