// Which kubeconfig files are read, how they are merged and which context is used: the
// loading rules of kubectl (client-go's clientcmd).
#include "kube/config.h"

#include <cstdlib>
#include <filesystem>
#include <set>

#include "core/errors.h"
#include "core/log.h"
#include "kube/kubeconfig_build.h"
#include "kube/kubeconfig_file.h"
#include "kube/kubeconfig_in_cluster.h"

namespace fs = std::filesystem;

namespace trainctl::kube {
namespace {

using detail::Getenv;
using detail::Kubeconfig;

Getenv getenv_of(const LoadOptions& options) {
  if (options.getenv) return options.getenv;
  return [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    if (!value) return std::nullopt;
    return std::string(value);
  };
}

bool file_exists(const std::string& path) {
  std::error_code ec;
  return fs::exists(path, ec);
}

// The files kubectl would read, in precedence order. Empty when there are none; then
// `none_reason` says why.
std::vector<std::string> kubeconfig_files(const LoadOptions& options, const Getenv& getenv,
                                          std::string& none_reason) {
  if (!options.kubeconfig_path.empty()) {
    // An explicitly named file must exist.
    if (!file_exists(options.kubeconfig_path))
      throw ConfigError("kubeconfig " + options.kubeconfig_path + ": file does not exist");
    return {options.kubeconfig_path};
  }
  if (std::string list = getenv("KUBECONFIG").value_or(""); !list.empty()) {
    // Like kubectl: empty entries and repeats are dropped, missing files are skipped.
    std::vector<std::string> files;
    std::set<std::string> seen;
    size_t start = 0;
    while (start <= list.size()) {
      size_t end = list.find(':', start);
      if (end == std::string::npos) end = list.size();
      std::string path = list.substr(start, end - start);
      start = end + 1;
      if (path.empty() || !seen.insert(path).second) continue;
      if (file_exists(path)) {
        files.push_back(path);
      } else {
        log::debug("kubeconfig {} (from KUBECONFIG) does not exist; skipped", path);
      }
    }
    if (files.empty()) none_reason = "no kubeconfig found: none of the files in KUBECONFIG exist (" + list + ")";
    return files;
  }
  none_reason = "no kubeconfig found: set --kubeconfig or KUBECONFIG, or create ~/.kube/config";
  std::string home = getenv("HOME").value_or("");
  if (home.empty()) return {};
  std::string path = (fs::path(home) / ".kube" / "config").string();
  if (!file_exists(path)) return {};
  return {path};
}

Kubeconfig load_merged(const std::vector<std::string>& files) {
  Kubeconfig merged;
  for (const auto& file : files) detail::merge_kubeconfig(merged, detail::parse_kubeconfig_file(file));
  return merged;
}

std::string context_names(const Kubeconfig& config) {
  std::string out;
  for (const auto& [name, ctx] : config.contexts) out += (out.empty() ? "" : ", ") + name;
  return out.empty() ? "none" : out;
}

}  // namespace

RestConfig load_rest_config(const LoadOptions& options) {
  Getenv getenv = getenv_of(options);
  std::string none_reason;
  std::vector<std::string> files = kubeconfig_files(options, getenv, none_reason);
  Kubeconfig config = load_merged(files);
  if (config.empty()) {
    // kubectl falls back to the pod's service account only when no kubeconfig says anything.
    if (detail::in_cluster_possible(options, getenv)) return detail::load_in_cluster(options, getenv);
    if (files.empty()) throw ConfigError(none_reason);
    throw ConfigError("kubeconfig " + config.files_text() + ": defines no contexts, clusters or users");
  }
  log::debug("kubeconfig files: {}", config.files_text());

  std::string name = options.context.empty() ? config.current_context : options.context;
  if (name.empty()) {
    throw ConfigError("kubeconfig " + config.files_text() +
                      ": no current-context is set; choose one with --context (contexts: " +
                      context_names(config) + ")");
  }
  auto it = config.contexts.find(name);
  if (it == config.contexts.end())
    throw ConfigError("context \"" + name + "\" not found in " + config.files_text());
  RestConfig rest = detail::build_rest_config(config, name, it->second);
  rest.namespace_ = !options.namespace_.empty()    ? options.namespace_
                    : !it->second.namespace_.empty() ? it->second.namespace_
                                                     : "default";
  rest.source = config.files_text();
  log::debug("using context \"{}\" (cluster \"{}\", user \"{}\", namespace \"{}\") from {}", rest.context_name,
             rest.cluster_name, rest.user_name, rest.namespace_, it->second.origin);
  return rest;
}

std::string resolve_namespace(const LoadOptions& options) {
  if (!options.namespace_.empty()) return options.namespace_;
  Getenv getenv = getenv_of(options);
  std::string none_reason;
  Kubeconfig config = load_merged(kubeconfig_files(options, getenv, none_reason));
  if (config.empty())
    return detail::in_cluster_possible(options, getenv) ? detail::in_cluster_namespace(options, getenv) : "default";
  std::string name = options.context.empty() ? config.current_context : options.context;
  if (name.empty()) return "default";
  auto it = config.contexts.find(name);
  if (it == config.contexts.end()) {
    // A context the user named must exist; a dangling current-context only matters to
    // commands that talk to the cluster.
    if (!options.context.empty())
      throw ConfigError("context \"" + name + "\" not found in " + config.files_text());
    return "default";
  }
  return it->second.namespace_.empty() ? "default" : it->second.namespace_;
}

std::vector<std::string> list_contexts(const LoadOptions& options) {
  std::string none_reason;
  std::set<std::string> names;
  for (const auto& file : kubeconfig_files(options, getenv_of(options), none_reason)) {
    try {
      for (const auto& [name, ctx] : detail::parse_kubeconfig_file(file).contexts) names.insert(name);
    } catch (const Error&) {
      log::debug("kubeconfig {}: unreadable, its contexts are not offered", file);
    }
  }
  return {names.begin(), names.end()};
}

}  // namespace trainctl::kube
