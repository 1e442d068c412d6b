// The user's config file: defaults for the namespace and for submit flags.
//
// Where: $TRAINCTL_CONFIG if set (the file must then exist), else
// $XDG_CONFIG_HOME/trainctl/config.yaml, else ~/.config/trainctl/config.yaml (a missing file
// there is no error: every setting is simply unset). Format and precedence: docs/config.md.
//
//   namespace: team-a                  # after -n, before the kubeconfig context's
//   image: pytorch/pytorch:2.3.0       # --image of every submit command
//   templateDir: /etc/trainctl/templates
//   imagePullSecrets: [regcred]
//   tensorboardImage: tensorflow/tensorflow:2.15.0
//   prometheus: http://prometheus.monitoring:9090   # GPU metrics (docs/metrics.md)
//   submit:                            # per submit command (or alias): flag name -> value(s)
//     pytorch: {gpus: 1, workers: 2}
//     mpi: {image: horovod/horovod:0.28.1, env: [NCCL_DEBUG=INFO]}
#pragma once

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace trainctl {

// Flag long name (no dashes) -> value(s); a list gives a repeatable flag several values.
using FlagDefaults = std::map<std::string, std::vector<std::string>>;

struct UserConfig {
  std::string path;  // the file read; empty when there was none
  std::string namespace_;
  std::string image;
  std::string template_dir;
  std::vector<std::string> image_pull_secrets;
  std::string tensorboard_image;
  std::string prometheus;  // URL of the Prometheus to read GPU metrics from
  std::map<std::string, FlagDefaults> submit;  // key: submit command name or alias

  bool empty() const;
  // Defaults for one submit command, given its name and aliases: the top-level keys
  // (image -> image, templateDir -> template-dir, imagePullSecrets -> image-pull-secret,
  // tensorboardImage -> tensorboard-image) overridden by the command's own section.
  FlagDefaults submit_defaults(const std::vector<std::string>& command_names) const;
  // The settings in the file's own shape (unset ones left out), for `trainctl config view`.
  nlohmann::ordered_json to_json() const;
};

using Getenv = std::function<std::optional<std::string>(const std::string&)>;

// The path the config is read from (see above); `explicit_path` says it came from
// TRAINCTL_CONFIG. Empty when neither the variables nor HOME give one. getenv defaults to
// the process environment.
std::string user_config_path(const Getenv& getenv, bool* explicit_path = nullptr);

// Parses config text; `path` names the file in messages. Throws ConfigError on malformed
// YAML, unknown keys or values of the wrong shape.
UserConfig parse_user_config(const std::string& text, const std::string& path);

// Finds and reads the config file. getenv defaults to the process environment.
UserConfig load_user_config(const Getenv& getenv = {});

}  // namespace trainctl
