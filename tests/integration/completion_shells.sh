#!/usr/bin/env bash
# Runs the generated completion scripts in the real shells: bash (COMP_WORDS/COMP_CWORD and
# the completion function, with bash-completion when installed), zsh (the script's engine
# with compadd/_describe recorded) and fish (complete -C). A missing zsh or fish is skipped,
# and with none of them the whole test (exit 77); with CI=true a missing one fails it.
set -euo pipefail
source "$(dirname "$0")/skip.bash"
: "${TRAINCTL:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PATH="$(cd "$(dirname "$TRAINCTL")" && pwd):$PATH"  # the scripts run `trainctl __complete`
export KUBECONFIG="$tmp/none"                                # no cluster: live lookups give nothing
fail() { echo "FAIL: $*" >&2; exit 1; }
ran=0

"$TRAINCTL" completion bash >"$tmp/trainctl.bash"
"$TRAINCTL" completion zsh >"$tmp/_trainctl"
"$TRAINCTL" completion fish >"$tmp/trainctl.fish"

# ---- bash ----
bash_complete() {  # WORDS... (the last is the word being completed) -> COMPREPLY, one per line
  bash --norc --noprofile -c '
    [ -f /usr/share/bash-completion/bash_completion ] && source /usr/share/bash-completion/bash_completion
    source "$0"
    COMP_WORDS=(trainctl "$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
    COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
    __trainctl_complete
    printf "%s\n" "${COMPREPLY[@]}"' "$tmp/trainctl.bash" "$@"
}
expect_bash() {  # "EXPECTED WORDS" WORDS...
  local want=$1; shift
  local got
  got=$(bash_complete "$@" | sort | tr '\n' ' ' | sed 's/ $//')
  want=$(tr ' ' '\n' <<<"$want" | sort | tr '\n' ' ' | sed 's/ $//')
  [ "$got" = "$want" ] || fail "bash: trainctl $* -> '$got', want '$want'"
}
expect_bash "submit" sub
expect_bash "pytorch" submit py
expect_bash "mpijob" submit mpij
expect_bash "json yaml wide name" list -o ''
expect_bash "json" -n team-a list --output j
expect_bash "git rsync" submit pytorch --name x --sync-mode ''
expect_bash "bash sh" submit pytorch --shell ''
expect_bash "none" submit pytorch --operator ''
expect_bash "trainer training-operator none" submit pytorch --api ''
expect_bash "ClusterTrainingRuntime TrainingRuntime" submit trainjob --runtime-kind ''
expect_bash "Running All None" submit mpi --clean-task-policy ''
expect_bash "pytorchjob pytorch py" list -T p
expect_bash "bash zsh fish" completion ''
expect_bash "node job queue" top ''
expect_bash "--all-namespaces" list --all
expect_bash "" get ''  # job names come from the cluster; there is none
bash_complete submit pytorch --sync-mode '' | grep -x git >/dev/null || fail "bash: values after a flag"
[ -f /usr/share/bash-completion/bash_completion ] && ran=1
if [[ "${CI:-}" == "true" ]]; then
  [ -f /usr/share/bash-completion/bash_completion ] || skip_or_fail "bash-completion is not installed"
  command -v zsh >/dev/null || skip_or_fail "zsh is not installed"
  command -v fish >/dev/null || skip_or_fail "fish is not installed"
fi
echo "bash: ok"

# ---- zsh ----
if command -v zsh >/dev/null; then
  zsh -f -c 'autoload -U compinit && compinit -u -d "$1/zcompdump" && source "$1/_trainctl" && (( $+functions[_trainctl] ))' \
    zsh "$tmp" || fail "zsh: the script does not load"
  zsh_complete() {  # the engine with zsh's completion builtins replaced by recorders
    zsh -f -c '
      compdef() { :; }
      # Like the real ones, they keep only the matches of the word being completed.
      compadd() { while (( $# )); do case $1 in -a) shift; print -l -- ${(M)${(P)1}:#${words[CURRENT]}*}; shift;; *) shift;; esac; done; }
      _describe() { print -l -- ${(M)${${(P)4}%%:*}:#${words[CURRENT]}*}; }
      compset() { :; }
      _files() { print -- "<files>"; }
      source "$1"; shift
      words=(trainctl "$@"); CURRENT=${#words}
      _trainctl' zsh "$tmp/_trainctl" "$@"
  }
  expect_zsh() {
    local want=$1; shift
    local got
    got=$(zsh_complete "$@" | grep -v '^$' | sort | tr '\n' ' ' | sed 's/ $//')
    want=$(tr ' ' '\n' <<<"$want" | sort | tr '\n' ' ' | sed 's/ $//')
    [ "$got" = "$want" ] || fail "zsh: trainctl $* -> '$got', want '$want'"
  }
  expect_zsh "completion config data delete doctor get list logs submit templates top version wait queue runtime resume suspend" ''
  expect_zsh "json yaml wide name" list -o ''
  expect_zsh "mpi pytorch tf trainjob volcano" submit ''
  expect_zsh "pytorchjob" submit pytorchj
  expect_zsh "tfjob" submit tfj
  expect_zsh "git rsync" submit pytorch --sync-mode ''
  expect_zsh "bash zsh fish" completion ''
  expect_zsh "<files>" --kubeconfig ''
  ran=1
  echo "zsh: ok"
else
  echo "zsh: not installed, skipped"
fi

# ---- fish ----
if command -v fish >/dev/null; then
  fish_complete() { fish --no-config -c "source $tmp/trainctl.fish; complete -C'$1'" | cut -f1 | sort | tr '\n' ' ' | sed 's/ $//'; }
  expect_fish() {
    local got
    got=$(fish_complete "$2")
    [ "$got" = "$1" ] || fail "fish: '$2' -> '$got', want '$1'"
  }
  fish --no-config -c "source $tmp/trainctl.fish" || fail "fish: the script does not load"
  expect_fish "submit" "trainctl sub"
  expect_fish "pytorch pytorchjob" "trainctl submit py"
  expect_fish "json name wide yaml" "trainctl list -o "
  expect_fish "git rsync" "trainctl -n x submit pytorch --sync-mode "
  expect_fish "bash fish zsh" "trainctl completion "
  expect_fish "job node queue" "trainctl top "
  ran=1
  echo "fish: ok"
else
  echo "fish: not installed, skipped"
fi

[ "$ran" = 1 ] || skip_or_fail "none of bash-completion, zsh, fish is installed"
echo PASS
