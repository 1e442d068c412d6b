// The fish completion script: one `complete` line per command, flag and subcommand,
// conditioned on the command path the words typed so far lead to.
#include <CLI/CLI.hpp>
#include <sstream>

#include "cmd/completion/complete_engine.h"
#include "cmd/completion/completion_script.h"

namespace trainctl::completion {

namespace {

const char* kFishEngine = R"FISH(
# The command path ("trainctl submit pytorch") that the words before the cursor lead to.
function __trainctl_path
    set -l tokens (commandline -opc)
    set -l cmdpath trainctl
    set -l skip 0
    set -l dashdash 0
    for w in $tokens[2..-1]
        if test $skip = 1
            set skip 0
            continue
        end
        if test $dashdash = 0
            switch $w
                case --
                    set dashdash 1
                    continue
                case '--*=*'
                    continue
                case '-?*'
                    __trainctl_takes_value "$cmdpath" $w; and set skip 1
                    continue
            end
            set -l child (__trainctl_child "$cmdpath" $w)
            if test -n "$child"
                set cmdpath "$cmdpath $child"
            end
        end
    end
    echo $cmdpath
end

function __trainctl_at --argument-names want
    test (__trainctl_path) = "$want"
end

# Candidates from `trainctl __complete WORDS...`, without its last line (":N").
function __trainctl_dynamic
    set -l tokens (commandline -opc)
    set -l current (commandline -ct)
    set -l out ($tokens[1] __complete $tokens[2..-1] "$current" 2>/dev/null)
    or return 0
    for line in $out
        string match -qr '^:[0-9]+$' -- $line; and continue
        echo $line
    end
end
)FISH";

void flag_line(std::ostringstream& s, const FlagInfo& f, const std::string& condition) {
  s << "complete -c trainctl" << condition;
  for (const auto& n : f.names) {
    if (n.rfind("--", 0) == 0)
      s << " -l " << n.substr(2);
    else
      s << " -s " << n.substr(1);
  }
  if (f.takes_value) {
    if (!f.values.empty())
      s << " -x -a " << shell_quote(join_words(f.values));
    else if (is_dynamic_flag(f.names))
      s << " -x -a '(__trainctl_dynamic)'";
    else
      s << " -r -F";
  }
  s << " -d " << shell_quote(f.help) << "\n";
}

}  // namespace

std::string fish_script(CLI::App& root) {
  const auto data = script_data(root);
  std::ostringstream s;
  s << "# fish completion for trainctl, generated from the command tree by\n"
       "# `trainctl completion fish`; do not edit. Install: trainctl completion fish | source, or\n"
       "# save it as ~/.config/fish/completions/trainctl.fish. Job, instance, namespace, PVC and\n"
       "# node names and kubeconfig contexts come from `trainctl __complete`.\n\n";
  s << "function __trainctl_child --argument-names cmdpath word\n    switch \"$cmdpath $word\"\n";
  for (const auto& d : data)
    for (const auto& [word, name] : d.children)
      s << "        case " << shell_quote(d.path + " " + word) << "\n            echo " << name << "\n";
  s << "    end\nend\n\n";
  s << "function __trainctl_takes_value --argument-names cmdpath flag\n    switch \"$cmdpath $flag\"\n";
  for (const auto& d : data) {
    if (d.value_flags.empty()) continue;
    s << "        case";
    for (const auto& n : d.value_flags) s << " " << shell_quote(d.path + " " + n);
    s << "\n            return 0\n";
  }
  s << "    end\n    return 1\nend\n" << kFishEngine << "\ncomplete -c trainctl -e\n";

  for (CLI::App* cmd : all_commands(root)) {
    const std::string path = command_path(*cmd);
    const bool is_root = cmd == &root;
    const std::string condition = " -n " + shell_quote("__trainctl_at '" + path + "'");
    s << "\n# " << path << "\n";
    for (const auto& f : own_flags(*cmd)) {
      if (!is_root && f.option == cmd->get_help_ptr()) continue;  // the global -h covers it
      flag_line(s, f, is_root ? "" : condition);
    }
    const auto subs = visible_subcommands(*cmd);
    for (CLI::App* sub : subs) {
      for (const auto& n : command_names(*sub)) {
        const std::string help = n == sub->get_name()
                                     ? sub->get_description()
                                     : "alias of " + sub->get_name() + ": " + sub->get_description();
        s << "complete -c trainctl" << condition << " -f -a " << n << " -d " << shell_quote(help) << "\n";
      }
    }
    bool dynamic = false, positional = false;
    std::vector<std::string> values;
    for (CLI::Option* p : positionals(*cmd)) {
      if (!positional) values = option_values(*p);
      positional = true;
      dynamic = dynamic || is_dynamic_positional(*p);
    }
    if (!values.empty())
      s << "complete -c trainctl" << condition << " -f -a " << shell_quote(join_words(values)) << "\n";
    else if (dynamic)
      s << "complete -c trainctl" << condition << " -f -a '(__trainctl_dynamic)'\n";
    else if (!positional || !subs.empty())
      s << "complete -c trainctl" << condition << " -f\n";
  }
  return s.str();
}

}  // namespace trainctl::completion
