#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>

#include "core/errors.h"
#include "core/user_config.h"
#include "support/paths.h"

using trainctl::ConfigError;
using trainctl::parse_user_config;
using Strings = std::vector<std::string>;

namespace {
trainctl::Getenv env(std::map<std::string, std::string> vars) {
  return [vars](const std::string& name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}
}  // namespace

TEST_CASE("the config path: TRAINCTL_CONFIG, then XDG_CONFIG_HOME, then ~/.config") {
  using trainctl::user_config_path;
  bool explicit_path = true;
  CHECK(user_config_path(env({{"HOME", "/home/u"}}), &explicit_path) ==
        "/home/u/.config/trainctl/config.yaml");
  CHECK_FALSE(explicit_path);
  CHECK(user_config_path(env({{"HOME", "/home/u"}, {"XDG_CONFIG_HOME", "/xdg"}})) ==
        "/xdg/trainctl/config.yaml");
  // The XDG spec says a relative XDG_CONFIG_HOME is invalid and must be ignored.
  CHECK(user_config_path(env({{"HOME", "/home/u"}, {"XDG_CONFIG_HOME", "rel"}})) ==
        "/home/u/.config/trainctl/config.yaml");
  CHECK(user_config_path(
            env({{"HOME", "/home/u"}, {"XDG_CONFIG_HOME", "/xdg"}, {"TRAINCTL_CONFIG", "/etc/t.yaml"}}),
            &explicit_path) == "/etc/t.yaml");
  CHECK(explicit_path);
  CHECK(user_config_path(env({})).empty());
}

TEST_CASE("every setting is read; submit sections map flag names to values") {
  const auto c = parse_user_config(
      "namespace: team-a\n"
      "image: pytorch/pytorch:2.3.0\n"
      "templateDir: /etc/trainctl/templates\n"
      "imagePullSecrets: [regcred, other]\n"
      "tensorboardImage: tensorflow/tensorflow:2.15.0\n"
      "submit:\n"
      "  pytorch:\n    gpus: 1\n    --workers: 2\n    env: [A=1, 'B=x: y']\n"
      "  mpi: {image: horovod/horovod:0.28.1}\n",
      "/c.yaml");
  CHECK(c.path == "/c.yaml");
  CHECK(c.namespace_ == "team-a");
  CHECK(c.image == "pytorch/pytorch:2.3.0");
  CHECK(c.template_dir == "/etc/trainctl/templates");
  CHECK(c.image_pull_secrets == Strings{"regcred", "other"});
  CHECK(c.tensorboard_image == "tensorflow/tensorflow:2.15.0");
  REQUIRE(c.submit.count("pytorch"));
  CHECK(c.submit.at("pytorch").at("gpus") == Strings{"1"});
  CHECK(c.submit.at("pytorch").at("workers") == Strings{"2"});  // leading -- dropped
  CHECK(c.submit.at("pytorch").at("env") == Strings{"A=1", "B=x: y"});

  // Top-level keys give every submit command defaults; its own section overrides them.
  const auto mpi = c.submit_defaults({"mpi", "mpijob"});
  CHECK(mpi.at("image") == Strings{"horovod/horovod:0.28.1"});
  CHECK(mpi.at("template-dir") == Strings{"/etc/trainctl/templates"});
  CHECK(mpi.at("image-pull-secret") == Strings{"regcred", "other"});
  CHECK(mpi.at("tensorboard-image") == Strings{"tensorflow/tensorflow:2.15.0"});
  const auto py = c.submit_defaults({"pytorch", "pytorchjob"});
  CHECK(py.at("image") == Strings{"pytorch/pytorch:2.3.0"});
  CHECK(py.at("gpus") == Strings{"1"});
  CHECK(c.submit_defaults({"volcano"}).count("gpus") == 0);

  const auto j = c.to_json();
  CHECK(j["imagePullSecrets"] == nlohmann::ordered_json({"regcred", "other"}));
  CHECK(j["submit"]["pytorch"]["gpus"] == "1");
  CHECK(j["submit"]["pytorch"]["env"] == nlohmann::ordered_json({"A=1", "B=x: y"}));
}

TEST_CASE("an empty file is no settings; mistakes are errors naming the file") {
  CHECK(parse_user_config("", "/c.yaml").empty());
  CHECK(parse_user_config("# nothing yet\n", "/c.yaml").empty());
  CHECK_THROWS_WITH(parse_user_config("namespce: x\n", "/c.yaml"),
                    Catch::StartsWith("config file /c.yaml: unknown setting \"namespce\""));
  CHECK_THROWS_WITH(parse_user_config("namespace: [a, b]\n", "/c.yaml"),
                    "config file /c.yaml: namespace must be a string");
  CHECK_THROWS_WITH(parse_user_config("image: [a, b\n", "/c.yaml"),
                    Catch::StartsWith("config file /c.yaml: not valid YAML"));
  CHECK_THROWS_AS(parse_user_config("- a\n- b\n", "/c.yaml"), ConfigError);
  CHECK_THROWS_AS(parse_user_config("submit: [pytorch]\n", "/c.yaml"), ConfigError);
  CHECK_THROWS_AS(parse_user_config("submit: {pytorch: [gpus]}\n", "/c.yaml"), ConfigError);
  CHECK_THROWS_AS(parse_user_config("submit: {pytorch: {env: [{a: b}]}}\n", "/c.yaml"), ConfigError);
}

TEST_CASE("load_user_config: a missing default file is fine, a missing TRAINCTL_CONFIG file is not") {
  const std::string dir = trainctl::testing::make_temp_dir("user-config");
  CHECK(trainctl::load_user_config(env({{"HOME", dir}})).empty());
  CHECK(trainctl::load_user_config(env({{"HOME", dir}})).path.empty());
  CHECK_THROWS_WITH(trainctl::load_user_config(env({{"TRAINCTL_CONFIG", dir + "/none.yaml"}})),
                    Catch::Contains("does not exist (named by TRAINCTL_CONFIG)"));

  std::filesystem::create_directories(dir + "/xdg/trainctl");
  std::ofstream(dir + "/xdg/trainctl/config.yaml") << "namespace: from-xdg\n";
  const auto c = trainctl::load_user_config(env({{"HOME", dir}, {"XDG_CONFIG_HOME", dir + "/xdg"}}));
  CHECK(c.namespace_ == "from-xdg");
  CHECK(c.path == dir + "/xdg/trainctl/config.yaml");
}
