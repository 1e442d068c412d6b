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

}  // namespace trainctl
