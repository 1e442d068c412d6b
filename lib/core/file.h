// Reading a whole file, for trainctl and kubesim alike.
#pragma once

#include <optional>
#include <string>

namespace trainctl {

// The file's bytes. On failure returns nullopt and sets `error` to the system's reason
// ("No such file or directory", "Is a directory", "Permission denied").
std::optional<std::string> read_file(const std::string& path, std::string& error);

// The file's bytes; throws ConfigError("cannot read PATH: REASON") on failure.
std::string read_file(const std::string& path);

// The bytes of a regular file of at most max_bytes. Anything else is refused without being
// read (a FIFO is not waited on, /dev/zero not read until memory runs out): nullopt, with
// `error` saying why ("is not a regular file", "is larger than 1048576 bytes", or the system's
// reason).
std::optional<std::string> read_regular_file(const std::string& path, size_t max_bytes, std::string& error);

}  // namespace trainctl
