// Runs an exec credential plugin as a child process, without a shell: the program gets its
// arguments as they are, stdin from /dev/null, and its stdout and stderr are captured.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace trainctl::kube::detail {

struct ProcessResult {
  int exec_errno = 0;   // non-zero: the program could not be started (execve's errno)
  int exit_code = -1;   // when it exited normally
  int term_signal = 0;  // when a signal ended it
  std::string out;
  std::string err;
};

// Where execvp would find `command`: itself when it contains a '/', else the first
// executable regular file of that name in the directories of `path_env`.
std::optional<std::string> find_executable(const std::string& command, const std::string& path_env);

// Runs `program` with argv (argv[0] included) and exactly the environment `env`
// ("NAME=value" entries). Throws ConfigError when no process can be created.
ProcessResult run_process(const std::string& program, const std::vector<std::string>& argv,
                          const std::vector<std::string>& env);

}  // namespace trainctl::kube::detail
