// Runs an exec credential plugin as a child process, without a shell: the program gets its
// arguments as they are, stdin from /dev/null, and its stdout and stderr are captured.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace trainctl::kube::detail {

// What trainctl gives one run of a plugin. client-go (plugin/pkg/client/auth/exec/exec.go,
// refreshCredsLocked) runs it without a time limit, reads its whole stdout and passes its
// stderr through; trainctl bounds all three.
struct ProcessLimits {
  std::chrono::milliseconds timeout{300000};  // then the process is killed (SIGKILL)
  size_t max_out = 1 << 20;                   // more stdout than this: killed
  size_t max_err = 64 << 10;                  // stderr past this is read and dropped
};

struct ProcessResult {
  int exec_errno = 0;   // non-zero: the program could not be started (execve's errno)
  int exit_code = -1;   // when it exited normally
  int term_signal = 0;  // when a signal ended it
  bool timed_out = false;     // killed after ProcessLimits::timeout
  bool out_too_long = false;  // killed for printing more than ProcessLimits::max_out
  std::string out;
  std::string err;
};

// Where execvp would find `command`: itself when it contains a '/', else the first
// executable regular file of that name in the directories of `path_env`.
std::optional<std::string> find_executable(const std::string& command, const std::string& path_env);

// Runs `program` with argv (argv[0] included) and exactly the environment `env`
// ("NAME=value" entries). Throws ConfigError when no process can be created.
ProcessResult run_process(const std::string& program, const std::vector<std::string>& argv,
                          const std::vector<std::string>& env, const ProcessLimits& limits = {});

}  // namespace trainctl::kube::detail
