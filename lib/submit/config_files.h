// --config-file HOST_FILE[:/container/path] (Arena's flag): host files shipped to the pods in
// ConfigMaps, one per container directory, named NAME-<first 15 hex digits of the MD5 of the
// directory> as Arena names them, and mounted at that directory.
#pragma once

#include <string>
#include <vector>

namespace trainctl::submit {

struct ConfigFile {
  std::string key;      // the file name in the container
  std::string content;  // the bytes read from the host
  bool binary = false;  // not UTF-8: goes to binaryData, base64-encoded
};

struct ConfigDir {
  std::string config_map;  // ConfigMap name
  std::string path;        // container directory the ConfigMap is mounted at
  std::vector<ConfigFile> files;
};

// A ConfigMap holds at most 1 MiB; the files of one directory may add up to this much.
inline constexpr size_t kConfigFileBytes = 1000000;

// Reads every host file and groups them by container directory, in the order given. Throws
// UsageError naming the flag value for: a relative container path, no container path for a
// relative host file, an unreadable host file, a file name a ConfigMap key cannot be, the
// same container path twice, and files of one directory over kConfigFileBytes.
std::vector<ConfigDir> read_config_files(const std::vector<std::string>& specs, const std::string& job_name);

}  // namespace trainctl::submit
