// The zsh completion script: the same tables as for bash plus descriptions, and an engine
// using _describe / compadd / _files.
#include <sstream>

#include "cmd/completion/completion_script.h"

namespace trainctl::completion {

namespace {

const char* kZshEngineHead = R"ZSH(
# Completes from the output of `trainctl __complete WORDS...` (candidates, then ":N").
__trainctl_dynamic() {
    local out directive
    local -a lines
    out=$("${words[1]}" __complete "${(@)words[2,CURRENT-1]}" "$1" 2>/dev/null) || return 0
    lines=("${(@f)out}")
    directive=${lines[-1]#:}
    lines[-1]=()
    [[ $directive == <-> ]] || directive=0
    if (( ${#lines} == 0 )); then
        (( directive & 5 )) || _files
        return 0
    fi
    if (( directive & 2 )); then
        compadd -Q -S '' -a lines
    else
        compadd -Q -a lines
    fi
}

_trainctl() {
    local cur=${words[CURRENT]} cmdpath=trainctl pending= dashdash= w n i
    local -a specs names
)ZSH";

// After the walk over the words typed (word_walk).
const char* kZshEngineTail = R"ZSH(    local flag=
    if [[ -n $pending ]]; then
        flag=$pending
    elif [[ -z $dashdash && $cur == --*=* ]]; then
        flag=${cur%%=*}
        compset -P '*='
    fi
    if [[ -n $flag ]]; then
        if [[ -n ${__trainctl_values[$cmdpath $flag]} ]]; then
            names=(${=__trainctl_values[$cmdpath $flag]})
            compadd -a names
        elif [[ " ${__trainctl_value_flags[$cmdpath]} " == *" $flag "* ]]; then
            __trainctl_dynamic "$cur"
        fi
        return 0
    fi
    if [[ -z $dashdash && $cur == -* ]]; then
        for n in ${=__trainctl_flags[$cmdpath]}; do
            specs+=("${n}:${__trainctl_help[$cmdpath $n]//:/\\:}")
        done
        _describe -t flags 'flag' specs
        return 0
    fi
    if [[ -n ${__trainctl_commands[$cmdpath]} ]]; then
        names=(${=__trainctl_commands[$cmdpath]})
        if [[ -n $cur && -z ${(M)names:#${cur}*} ]]; then
            names=(${=__trainctl_aliases[$cmdpath]})
        fi
        for n in $names; do
            specs+=("${n}:${__trainctl_help[$cmdpath $n]//:/\\:}")
        done
        _describe -t commands 'command' specs
        return 0
    fi
    if [[ -n ${__trainctl_args[$cmdpath]} ]]; then
        names=(${=__trainctl_args[$cmdpath]})
        compadd -a names
        return 0
    fi
    __trainctl_dynamic "$cur"
}

if [[ $funcstack[1] == _trainctl ]]; then
    _trainctl "$@"
else
    compdef _trainctl trainctl
fi
)ZSH";

}  // namespace

std::string zsh_script(CLI::App& root) {
  const auto data = script_data(root);
  std::ostringstream s;
  s << "#compdef trainctl\n"
       "# zsh completion for trainctl, generated from the command tree by\n"
       "# `trainctl completion zsh`; do not edit. Install: source <(trainctl completion zsh), or\n"
       "# save it as _trainctl in a directory of $fpath. Job, instance, namespace, PVC and node\n"
       "# names and kubeconfig contexts come from `trainctl __complete`.\n\n"
       "typeset -gA __trainctl_commands __trainctl_aliases __trainctl_children __trainctl_flags\n"
       "typeset -gA __trainctl_value_flags __trainctl_values __trainctl_help __trainctl_args\n";
  write_shared_tables(s, data, {"", [](const std::string& k, const std::string& v) { return k + " " + v; }});
  s << ")\n__trainctl_help=(\n";
  for (const auto& d : data) {
    for (const auto& [n, help] : d.subcommands)
      s << "    " << shell_quote(d.path + " " + n) << " " << shell_quote(help) << "\n";
    for (const auto& [word, name] : d.children)
      if (word != name)
        for (const auto& [n, help] : d.subcommands)
          if (n == name)
            s << "    " << shell_quote(d.path + " " + word) << " "
              << shell_quote("alias of " + name + ": " + help) << "\n";
    for (const auto& f : d.flags)
      for (const auto& n : f.names)
        s << "    " << shell_quote(d.path + " " + n) << " " << shell_quote(f.help) << "\n";
  }
  s << ")\n__trainctl_args=(\n";
  for (const auto& d : data)
    if (!d.positional_values.empty())
      s << "    " << shell_quote(d.path) << " " << shell_quote(join_words(d.positional_values)) << "\n";
  s << ")\n" << kZshEngineHead << word_walk("2", "CURRENT", "$cmdpath $w") << kZshEngineTail;
  return s.str();
}

}  // namespace trainctl::completion
