#include "kube/kubeconfig_exec_process.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>

#include "core/errors.h"

namespace trainctl::kube::detail {
namespace {

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

std::vector<char*> c_strings(const std::vector<std::string>& items) {
  std::vector<char*> out;
  out.reserve(items.size() + 1);
  for (const auto& s : items) out.push_back(const_cast<char*>(s.c_str()));
  out.push_back(nullptr);
  return out;
}

// Reads stdout and stderr together so that a plugin filling one pipe cannot block, within
// the limits: past the timeout or max_out the process is killed (and its pipes read to their
// end, which the kill brings); stderr past max_err is dropped.
void drain(pid_t pid, int& out_fd, int& err_fd, ProcessResult& r, const ProcessLimits& limits) {
  using steady = std::chrono::steady_clock;
  auto deadline = steady::now() + limits.timeout;
  bool killed = false;
  auto kill_it = [&] {
    if (!killed) ::kill(pid, SIGKILL);
    killed = true;
    // A child the plugin started may hold the pipes open: read them a second more at most.
    deadline = steady::now() + std::chrono::seconds(1);
  };
  char buf[8192];
  while (out_fd >= 0 || err_fd >= 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - steady::now()).count();
    if (left <= 0) {
      if (killed) break;
      r.timed_out = true;
      kill_it();
      continue;
    }
    const int wait_ms = static_cast<int>(std::min<long long>(left, 1000));
    pollfd fds[2] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
    if (::poll(fds, 2, wait_ms) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        close_fd(i == 0 ? out_fd : err_fd);
        continue;
      }
      std::string& into = i == 0 ? r.out : r.err;
      const size_t max = i == 0 ? limits.max_out : limits.max_err;
      const size_t room = into.size() < max ? max - into.size() : 0;
      into.append(buf, std::min(room, static_cast<size_t>(n)));
      if (i == 0 && static_cast<size_t>(n) > room && !r.timed_out) {
        r.out_too_long = true;
        kill_it();
      }
    }
  }
  close_fd(out_fd);
  close_fd(err_fd);
}

}  // namespace

std::optional<std::string> find_executable(const std::string& command, const std::string& path_env) {
  if (command.empty()) return std::nullopt;
  if (command.find('/') != std::string::npos) return command;
  size_t start = 0;
  while (start <= path_env.size() && !path_env.empty()) {
    size_t end = path_env.find(':', start);
    if (end == std::string::npos) end = path_env.size();
    std::string dir = path_env.substr(start, end - start);
    start = end + 1;
    std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + command;
    struct stat st {};
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(candidate.c_str(), X_OK) == 0)
      return candidate;
  }
  return std::nullopt;
}

ProcessResult run_process(const std::string& program, const std::vector<std::string>& argv,
                          const std::vector<std::string>& env, const ProcessLimits& limits) {
  // Everything the child needs is prepared before fork: after it only async-signal-safe calls.
  std::vector<char*> c_argv = c_strings(argv);
  std::vector<char*> c_env = c_strings(env);
  int out_pipe[2] = {-1, -1};
  int err_pipe[2] = {-1, -1};
  int status_pipe[2] = {-1, -1};
  int dev_null = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (dev_null < 0 || ::pipe2(out_pipe, O_CLOEXEC) != 0 || ::pipe2(err_pipe, O_CLOEXEC) != 0 ||
      ::pipe2(status_pipe, O_CLOEXEC) != 0) {
    std::string error = std::strerror(errno);
    for (int* fd : {&dev_null, &out_pipe[0], &out_pipe[1], &err_pipe[0], &err_pipe[1], &status_pipe[0], &status_pipe[1]})
      close_fd(*fd);
    throw ConfigError("cannot run exec plugin " + program + ": " + error);
  }
  pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(dev_null, STDIN_FILENO);
    ::dup2(out_pipe[1], STDOUT_FILENO);
    ::dup2(err_pipe[1], STDERR_FILENO);
    ::signal(SIGPIPE, SIG_DFL);
    ::execve(program.c_str(), c_argv.data(), c_env.data());
    int e = errno;
    ssize_t ignored = ::write(status_pipe[1], &e, sizeof e);
    (void)ignored;
    ::_exit(127);
  }
  int fork_errno = errno;
  close_fd(dev_null);
  close_fd(out_pipe[1]);
  close_fd(err_pipe[1]);
  close_fd(status_pipe[1]);
  if (pid < 0) {
    for (int* fd : {&out_pipe[0], &err_pipe[0], &status_pipe[0]}) close_fd(*fd);
    throw ConfigError("cannot run exec plugin " + program + ": " + std::strerror(fork_errno));
  }

  ProcessResult result;
  int child_errno = 0;
  ssize_t n;
  do {
    n = ::read(status_pipe[0], &child_errno, sizeof child_errno);
  } while (n < 0 && errno == EINTR);
  close_fd(status_pipe[0]);
  if (n == static_cast<ssize_t>(sizeof child_errno)) result.exec_errno = child_errno;

  drain(pid, out_pipe[0], err_pipe[0], result, limits);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.term_signal = WTERMSIG(status);
  return result;
}

}  // namespace trainctl::kube::detail
