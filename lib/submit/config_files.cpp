#include "submit/config_files.h"

#define OPENSSL_SUPPRESS_DEPRECATED  // MD5(): a name, not security
#include <openssl/md5.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <set>

#include "core/errors.h"
#include "core/file.h"
#include "print/escape.h"
#include "submit/parse.h"

namespace trainctl::submit {

namespace {

std::string md5_hex(const std::string& text) {
  unsigned char digest[MD5_DIGEST_LENGTH];
  MD5(reinterpret_cast<const unsigned char*>(text.data()), text.size(), digest);
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned char b : digest) {
    out += hex[b >> 4];
    out += hex[b & 15];
  }
  return out;
}

}  // namespace

std::vector<ConfigDir> read_config_files(const std::vector<std::string>& specs, const std::string& job_name) {
  static const std::regex key_re("[-._a-zA-Z0-9]+");
  std::vector<ConfigDir> dirs;
  std::set<std::string> targets;
  for (const auto& spec : specs) {
    const size_t colon = spec.find(':');
    std::string host = spec.substr(0, colon);
    if (host.empty()) throw UsageError("invalid --config-file " + dq(spec) + ": use HOST_FILE[:/container/path]");
    // As Arena's setConfigFiles (kubeflow/arena pkg/argsbuilder/submit.go): "~/" is the home
    // directory, and without a container path the file lands at its own absolute host path.
    const char* home = std::getenv("HOME");
    if (host.rfind("~/", 0) == 0 && home) host = home + host.substr(1);
    if (colon == std::string::npos) host = std::filesystem::absolute(host).lexically_normal().string();
    std::string target = colon == std::string::npos ? host : spec.substr(colon + 1);
    if (target.empty() || target[0] != '/')
      throw UsageError("invalid --config-file " + dq(spec) + ": the container path must be absolute");
    while (target.size() > 1 && target.back() == '/') target.pop_back();
    const size_t slash = target.rfind('/');
    const std::string key = target.substr(slash + 1);
    const std::string dir = slash == 0 ? "/" : target.substr(0, slash);
    if (key.empty() || key == "." || key == ".." || !std::regex_match(key, key_re))
      throw UsageError("invalid --config-file " + dq(spec) + ": " + dq(key) +
                       " cannot be a file name in a ConfigMap (letters, digits, '-', '_', '.')");
    if (!targets.insert(target).second)
      throw UsageError("--config-file puts two files at " + dq(target));
    // A regular file that fits a ConfigMap, read no further than that.
    std::string error;
    auto content = read_regular_file(host, kConfigFileBytes, error);
    if (!content) {
      if (error.rfind("is ", 0) != 0)
        error = "no such readable file";  // one message for missing or unreadable
      throw UsageError(
          "cannot read --config-file " + dq(host) + ": " + error +
          (error.find("larger") != std::string::npos ? " (a ConfigMap holds at most 1 MiB)" : ""));
    }

    auto it = std::find_if(dirs.begin(), dirs.end(), [&](const ConfigDir& d) { return d.path == dir; });
    if (it == dirs.end()) {
      dirs.push_back({job_name + "-" + md5_hex(dir).substr(0, 15), dir, {}});
      it = dirs.end() - 1;
    }
    const bool binary = !print::is_utf8(*content);
    it->files.push_back({key, std::move(*content), binary});
    size_t total = 0;
    for (const auto& f : it->files) total += f.binary ? (f.content.size() + 2) / 3 * 4 : f.content.size();
    if (total > kConfigFileBytes)
      throw UsageError("the --config-file files for " + dq(dir) + " add up to " + std::to_string(total) +
                       " bytes; a ConfigMap holds at most 1 MiB");
  }
  return dirs;
}

}  // namespace trainctl::submit
