// What a container starts, reduced to the one launcher command in it (python, torchrun,
// mpirun): its command and args after Kubernetes' $(VAR) expansion and, for `sh -c SCRIPT`
// (or bash), after the shell's quoting, parameter expansion and word splitting of a simple
// script (POSIX sh, "Shell Command Language": 2.2 quoting, 2.6.2 parameter expansion, 2.6.5
// field splitting, 2.9.1 simple commands with their variable assignments).
//
// Understood: words, '...' and "..." quoting, backslashes, $NAME, ${NAME}, ${NAME:-word},
// ${NAME-word}; the list operators ; && || | & and newlines as command separators;
// redirections (dropped); `export`, `unset` and NAME=value assignments; `exec`, `nohup`
// and `env NAME=value` before a command. A command substitution or arithmetic expansion
// gives a word kubesim does not know. Anything else (subshells, braces, if/for/while/case,
// functions, `source`, positional parameters) makes the script one kubesim does not judge;
// so does a script with no launcher, with several, or with a command outside a short list
// of ones that cannot start training (cd, echo, pip install, ...).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kubesim/controllers/rendezvous_env.h"

namespace kubesim {

struct Word {
  std::string text;
  bool known = true;  // false: the value came from somewhere kubesim does not know
};

struct LaunchCommand {
  bool judged = false;     // false: kubesim cannot tell what the container runs
  std::vector<Word> argv;  // the launcher command; argv[0] is its program as written
  ContainerEnv env;        // the environment it starts with
};

// The launcher a container (an element of pod.spec.containers) runs.
LaunchCommand launch_command(const nlohmann::json& pod, const nlohmann::json& container);

// The launcher in a shell script run with `sh -c` and the given environment.
LaunchCommand launch_command_in_script(const std::string& script, const ContainerEnv& env);

// The last path component of a program name ("/usr/bin/python3" -> "python3").
std::string program_name(const std::string& argv0);
bool is_python(const std::string& program);   // python, python3, python3.11, ...
bool is_launcher(const std::string& program);  // python*, torchrun, mpirun, mpiexec, orterun

}  // namespace kubesim
