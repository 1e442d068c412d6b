#include "core/file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/errors.h"

namespace trainctl {

std::optional<std::string> read_file(const std::string& path, std::string& error) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = std::strerror(errno);
    return std::nullopt;
  }
  std::string out;
  char buf[8192];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      error = std::strerror(errno);  // e.g. "Is a directory"
      ::close(fd);
      return std::nullopt;
    }
    if (n == 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return out;
}

std::optional<std::string> read_regular_file(const std::string& path, size_t max_bytes, std::string& error) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    error = std::strerror(errno);
    return std::nullopt;
  }
  struct stat st {};
  std::optional<std::string> out;
  if (::fstat(fd, &st) != 0) {
    error = std::strerror(errno);
  } else if (!S_ISREG(st.st_mode)) {
    error = S_ISDIR(st.st_mode) ? "is a directory" : "is not a regular file";
  } else if (static_cast<unsigned long long>(st.st_size) > max_bytes) {
    error = "is larger than " + std::to_string(max_bytes) + " bytes";
  } else {
    std::string text;
    char buf[8192];
    for (;;) {
      const ssize_t n = ::read(fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        error = std::strerror(errno);
        break;
      }
      if (n == 0) {
        out = std::move(text);
        break;
      }
      if (text.size() + static_cast<size_t>(n) > max_bytes) {  // it grew while being read
        error = "is larger than " + std::to_string(max_bytes) + " bytes";
        break;
      }
      text.append(buf, static_cast<size_t>(n));
    }
  }
  ::close(fd);
  return out;
}

std::string read_file(const std::string& path) {
  std::string error;
  std::optional<std::string> text = read_file(path, error);
  if (!text) throw ConfigError("cannot read " + path + ": " + error);
  return std::move(*text);
}

}  // namespace trainctl
