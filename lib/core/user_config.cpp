#include "core/user_config.h"

#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <filesystem>

#include "core/errors.h"
#include "core/file.h"

namespace trainctl {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw ConfigError("config file " + path + ": " + what);
}

std::string scalar(const YAML::Node& node, const std::string& path, const std::string& key) {
  if (!node.IsScalar()) fail(path, key + " must be a string");
  return node.as<std::string>();
}

// A scalar gives one value, a sequence of scalars several.
std::vector<std::string> values(const YAML::Node& node, const std::string& path, const std::string& key) {
  if (node.IsScalar()) return {node.as<std::string>()};
  if (node.IsNull()) return {};
  if (!node.IsSequence()) fail(path, key + " must be a value or a list of values");
  std::vector<std::string> out;
  for (const auto& item : node) {
    if (!item.IsScalar()) fail(path, key + " must be a list of plain values");
    out.push_back(item.as<std::string>());
  }
  return out;
}

FlagDefaults flag_defaults(const YAML::Node& node, const std::string& path, const std::string& section) {
  if (node.IsNull()) return {};
  if (!node.IsMap()) fail(path, section + " must be a map of flag names to values");
  FlagDefaults out;
  for (const auto& kv : node) {
    std::string flag = kv.first.as<std::string>();
    if (flag.rfind("--", 0) == 0) flag = flag.substr(2);
    out[flag] = values(kv.second, path, section + "." + flag);
  }
  return out;
}

nlohmann::ordered_json list_json(const std::vector<std::string>& v) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (const auto& s : v) a.push_back(s);
  return a;
}

Getenv or_process_env(const Getenv& getenv) {
  if (getenv) return getenv;
  return [](const std::string& name) -> std::optional<std::string> {
    const char* v = std::getenv(name.c_str());
    if (!v) return std::nullopt;
    return std::string(v);
  };
}

}  // namespace

bool UserConfig::empty() const {
  return namespace_.empty() && image.empty() && template_dir.empty() && image_pull_secrets.empty() &&
         tensorboard_image.empty() && prometheus.empty() && submit.empty();
}

FlagDefaults UserConfig::submit_defaults(const std::vector<std::string>& command_names) const {
  FlagDefaults out;
  if (!image.empty()) out["image"] = {image};
  if (!template_dir.empty()) out["template-dir"] = {template_dir};
  if (!image_pull_secrets.empty()) out["image-pull-secret"] = image_pull_secrets;
  if (!tensorboard_image.empty()) out["tensorboard-image"] = {tensorboard_image};
  for (const auto& name : command_names) {
    auto it = submit.find(name);
    if (it == submit.end()) continue;
    for (const auto& [flag, v] : it->second) out[flag] = v;
  }
  return out;
}

nlohmann::ordered_json UserConfig::to_json() const {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  if (!namespace_.empty()) j["namespace"] = namespace_;
  if (!image.empty()) j["image"] = image;
  if (!template_dir.empty()) j["templateDir"] = template_dir;
  if (!image_pull_secrets.empty()) j["imagePullSecrets"] = list_json(image_pull_secrets);
  if (!tensorboard_image.empty()) j["tensorboardImage"] = tensorboard_image;
  if (!prometheus.empty()) j["prometheus"] = prometheus;
  if (!submit.empty()) {
    auto& s = j["submit"] = nlohmann::ordered_json::object();
    for (const auto& [kind, flags] : submit) {
      auto& k = s[kind] = nlohmann::ordered_json::object();
      for (const auto& [flag, v] : flags)
        k[flag] = v.size() == 1 ? nlohmann::ordered_json(v.front()) : list_json(v);
    }
  }
  return j;
}

std::string user_config_path(const Getenv& getenv_in, bool* explicit_path) {
  const Getenv getenv = or_process_env(getenv_in);
  if (explicit_path) *explicit_path = false;
  if (auto p = getenv("TRAINCTL_CONFIG"); p && !p->empty()) {
    if (explicit_path) *explicit_path = true;
    return *p;
  }
  if (auto x = getenv("XDG_CONFIG_HOME"); x && !x->empty() && fs::path(*x).is_absolute())
    return (fs::path(*x) / "trainctl" / "config.yaml").string();
  if (auto home = getenv("HOME"); home && !home->empty())
    return (fs::path(*home) / ".config" / "trainctl" / "config.yaml").string();
  return {};
}

// Read with yaml-cpp's nodes rather than as JSON (yaml/read.h, which lib/core cannot use and
// which would not suit): every value here is a flag value, an argv word, and is taken as
// written. "gpus: 2" is --gpus=2 and "image: pytorch:2.0" keeps "2.0", where kubectl's reading
// would make 2.0 the number 2 and "yes" the boolean true.
UserConfig parse_user_config(const std::string& text, const std::string& path) {
  UserConfig c;
  c.path = path;
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    fail(path, "not valid YAML: " + e.msg + " (line " + std::to_string(e.mark.line + 1) + ")");
  }
  if (root.IsNull()) return c;
  if (!root.IsMap()) fail(path, "must be a map of settings");
  for (const auto& kv : root) {
    const std::string key = kv.first.as<std::string>();
    const YAML::Node& v = kv.second;
    if (key == "namespace")
      c.namespace_ = scalar(v, path, key);
    else if (key == "image")
      c.image = scalar(v, path, key);
    else if (key == "templateDir")
      c.template_dir = scalar(v, path, key);
    else if (key == "imagePullSecrets")
      c.image_pull_secrets = values(v, path, key);
    else if (key == "tensorboardImage")
      c.tensorboard_image = scalar(v, path, key);
    else if (key == "prometheus")
      c.prometheus = scalar(v, path, key);
    else if (key == "submit") {
      if (v.IsNull()) continue;
      // Which names are submit commands is the command tree's to say: cmd/config_defaults.cpp
      // checks each section against it when a submit command runs.
      if (!v.IsMap()) fail(path, "submit must be a map from submit command names to their flags");
      for (const auto& kind : v) {
        const std::string name = kind.first.as<std::string>();
        c.submit[name] = flag_defaults(kind.second, path, "submit." + name);
      }
    } else {
      fail(path, "unknown setting \"" + key +
                     "\" (known: namespace, image, templateDir, imagePullSecrets, tensorboardImage, prometheus, submit)");
    }
  }
  return c;
}

UserConfig load_user_config(const Getenv& getenv_in) {
  const Getenv getenv = or_process_env(getenv_in);
  bool explicit_path = false;
  const std::string path = user_config_path(getenv, &explicit_path);
  if (path.empty()) return {};
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    if (explicit_path) fail(path, "does not exist (named by TRAINCTL_CONFIG)");
    return {};
  }
  std::string error;
  const std::optional<std::string> text = read_file(path, error);
  if (!text) fail(path, "cannot be read: " + error);
  return parse_user_config(*text, path);
}

}  // namespace trainctl
