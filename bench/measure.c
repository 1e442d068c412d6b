/* measure: runs a command and appends one line "wall_ms user_ms sys_ms maxrss_kb exit" to a
 * stats file. Usage: measure STATSFILE COMMAND [ARGS...]
 * The child's stdin/stdout/stderr are inherited; wall time is taken with CLOCK_MONOTONIC
 * around fork/wait4, CPU time and peak RSS come from wait4()'s struct rusage. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double ms_of(struct timeval tv) { return tv.tv_sec * 1e3 + tv.tv_usec / 1e3; }

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: measure STATSFILE COMMAND [ARGS...]\n");
    return 2;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  pid_t pid = fork();
  if (pid < 0) {
    perror("fork");
    return 2;
  }
  if (pid == 0) {
    execvp(argv[2], argv + 2);
    perror(argv[2]);
    _exit(127);
  }
  int status = 0;
  struct rusage ru;
  memset(&ru, 0, sizeof ru);
  if (wait4(pid, &status, 0, &ru) < 0) {
    perror("wait4");
    return 2;
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double wall = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  FILE* f = fopen(argv[1], "a");
  if (!f) {
    perror(argv[1]);
    return 2;
  }
  fprintf(f, "%.1f %.1f %.1f %ld %d\n", wall, ms_of(ru.ru_utime), ms_of(ru.ru_stime), ru.ru_maxrss, code);
  fclose(f);
  return code;
}
