// The bash completion script: tables generated from the command tree, and a fixed engine
// that walks the words typed so far through them.
#include <sstream>

#include "cmd/completion/completion_script.h"

namespace trainctl::completion {

namespace {

const char* kBashEngineHead = R"BASH(
# Completes "$cur" from the output of `trainctl __complete WORDS...` (candidates, then ":N").
__trainctl_dynamic() {
    local out directive line
    local -a cands=()
    out=$("${words[0]}" __complete "${words[@]:1:cword-1}" "$orig_cur" 2>/dev/null) || return 0
    while IFS= read -r line; do
        cands+=("$line")
    done <<<"$out"
    directive=${cands[-1]#:}
    unset 'cands[-1]'
    [[ $directive =~ ^[0-9]+$ ]] || directive=0
    if ((${#cands[@]} == 0)); then
        if ((directive & 4)) || ((directive & 1)); then return 0; fi
        compopt -o filenames 2>/dev/null
        COMPREPLY=($(compgen -f -- "$cur"))
        return 0
    fi
    ((directive & 2)) && compopt -o nospace 2>/dev/null
    COMPREPLY=("${cands[@]}")
    if [[ $cur == *:* ]] && declare -F __ltrim_colon_completions >/dev/null; then
        __ltrim_colon_completions "$orig_cur"
    fi
}

__trainctl_complete() {
    local cur prev words cword
    if declare -F _get_comp_words_by_ref >/dev/null; then
        _get_comp_words_by_ref -n =: cur prev words cword
    else
        words=("${COMP_WORDS[@]}")
        cword=$COMP_CWORD
        cur=${COMP_WORDS[COMP_CWORD]}
    fi
    COMPREPLY=()
    local orig_cur=$cur cmdpath=trainctl pending= dashdash= w i
)BASH";

// After the walk over the words typed (word_walk).
const char* kBashEngineTail = R"BASH(    local flag=
    if [[ -n $pending ]]; then
        flag=$pending
    elif [[ -z $dashdash && $cur == --*=* ]]; then
        flag=${cur%%=*}
        cur=${cur#*=}
    fi
    if [[ -n $flag ]]; then
        if [[ -n ${__trainctl_values["$cmdpath $flag"]} ]]; then
            COMPREPLY=($(compgen -W "${__trainctl_values["$cmdpath $flag"]}" -- "$cur"))
        elif [[ " ${__trainctl_value_flags[$cmdpath]} " == *" $flag "* ]]; then
            __trainctl_dynamic
        fi
        return 0
    fi
    if [[ -z $dashdash && $cur == -* ]]; then
        COMPREPLY=($(compgen -W "${__trainctl_flags[$cmdpath]}" -- "$cur"))
        [[ ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
        return 0
    fi
    if [[ -n ${__trainctl_commands[$cmdpath]} ]]; then
        COMPREPLY=($(compgen -W "${__trainctl_commands[$cmdpath]}" -- "$cur"))
        if ((${#COMPREPLY[@]} == 0)); then
            COMPREPLY=($(compgen -W "${__trainctl_aliases[$cmdpath]}" -- "$cur"))
        fi
        return 0
    fi
    if [[ -n ${__trainctl_args[$cmdpath]} ]]; then
        COMPREPLY=($(compgen -W "${__trainctl_args[$cmdpath]}" -- "$cur"))
        return 0
    fi
    __trainctl_dynamic
}

complete -F __trainctl_complete trainctl
)BASH";

}  // namespace

std::string bash_script(CLI::App& root) {
  const auto data = script_data(root);
  std::ostringstream s;
  s << "# bash completion for trainctl                            -*- shell-script -*-\n"
       "# Generated from the command tree by `trainctl completion bash`; do not edit.\n"
       "# Install: source <(trainctl completion bash), or save it as\n"
       "# /usr/share/bash-completion/completions/trainctl. Job, instance, namespace, PVC and\n"
       "# node names and kubeconfig contexts come from `trainctl __complete`.\n\n";
  write_shared_tables(s, data, {"declare -gA ", [](const std::string& k, const std::string& v) {
                                  return "[" + k + "]=" + v;
                                }});
  s << ")\ndeclare -gA __trainctl_args=(\n";
  for (const auto& d : data)
    if (!d.positional_values.empty())
      s << "    [" << shell_quote(d.path) << "]=" << shell_quote(join_words(d.positional_values)) << "\n";
  s << ")\n" << kBashEngineHead << word_walk("1", "cword", "\"$cmdpath $w\"") << kBashEngineTail;
  return s.str();
}

}  // namespace trainctl::completion
