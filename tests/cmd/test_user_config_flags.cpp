// The config file seen through the real command tree: submit defaults (flags win), the
// namespace order -n > config > kubeconfig context, and `config view`.
#include <catch2/catch.hpp>
#include <fstream>

#include "completion_support.h"
#include "core/errors.h"
#include "core/user_config.h"
#include "support/paths.h"

using Strings = std::vector<std::string>;

namespace {
const char* kConfig =
    "namespace: team-a\n"
    "image: cfg/image:1\n"
    "imagePullSecrets: [regcred]\n"
    "tensorboardImage: cfg/tb:1\n"
    "submit:\n"
    "  pytorch: {gpus: 2, workers: 3, label: [team=a, tier=b]}\n";

// argv in CLI11's reversed order.
Strings rev(Strings v) { return Strings(v.rbegin(), v.rend()); }

std::string dry_run(Tree& t, Strings args) {
  t.factory.set_user_config(trainctl::parse_user_config(kConfig, "/cfg.yaml"));
  t.app.parse(rev(std::move(args)));
  return t.factory.io().out_text();
}
}  // namespace

TEST_CASE("config defaults fill the submit flags the command line leaves out") {
  Tree t;
  const std::string out =
      dry_run(t, {"submit", "pytorch", "--name", "mnist", "--dry-run", "python train.py"});
  CHECK_THAT(out, Catch::Contains("namespace: team-a"));  // config namespace, no -n
  CHECK_THAT(out, Catch::Contains("image: cfg/image:1"));
  CHECK_THAT(out, Catch::Contains("nvidia.com/gpu: \"2\""));
  CHECK_THAT(out, Catch::Contains("- name: regcred"));
  CHECK_THAT(out, Catch::Contains("team: a"));
  CHECK_THAT(out, Catch::Contains("tier: b"));
  // --workers 3 counts the master: one Master and two Workers.
  CHECK_THAT(out, Catch::Contains("replicas: 2"));
}

TEST_CASE("flags win over the config file, -n included") {
  Tree t;
  const std::string out =
      dry_run(t, {"-n", "mine", "submit", "pytorch", "--name", "mnist", "--image", "me/img:2", "--gpus", "1",
                  "--label", "only=me", "--dry-run", "python train.py"});
  CHECK_THAT(out, Catch::Contains("namespace: mine"));
  CHECK_THAT(out, Catch::Contains("image: me/img:2"));
  CHECK_THAT(out, !Catch::Contains("cfg/image:1"));
  CHECK_THAT(out, Catch::Contains("nvidia.com/gpu: \"1\""));
  CHECK_THAT(out, Catch::Contains("only: me"));
  CHECK_THAT(out, !Catch::Contains("team: a"));
}

TEST_CASE("top-level settings reach every submit command that has the flag") {
  Tree t;
  // volcano has no --tensorboard-image: the top-level tensorboardImage is skipped for it.
  const std::string out = dry_run(t, {"submit", "volcano", "--name", "vj", "--dry-run", "echo hi"});
  CHECK_THAT(out, Catch::Contains("image: cfg/image:1"));
  CHECK_THAT(out, !Catch::Contains("nvidia.com/gpu: \"2\""));  // pytorch's section only
}

TEST_CASE("config mistakes in submit sections are errors naming the file") {
  Tree t;
  t.factory.set_user_config(trainctl::parse_user_config("submit: {pytroch: {gpus: 1}}\n", "/cfg.yaml"));
  CHECK_THROWS_WITH(t.app.parse(rev({"submit", "mpi", "--name", "x", "--dry-run", "c"})),
                    Catch::StartsWith("config file /cfg.yaml: unknown submit command \"pytroch\""));
  Tree u;
  u.factory.set_user_config(trainctl::parse_user_config("submit: {mpi: {gpu: 1}}\n", "/cfg.yaml"));
  CHECK_THROWS_WITH(u.app.parse(rev({"submit", "mpi", "--name", "x", "--dry-run", "c"})),
                    "config file /cfg.yaml: \"mpi\" has no flag --gpu");
  Tree v;
  v.factory.set_user_config(trainctl::parse_user_config("submit: {mpi: {gpus: many}}\n", "/cfg.yaml"));
  CHECK_THROWS_AS(v.app.parse(rev({"submit", "mpi", "--name", "x", "--dry-run", "c"})),
                  trainctl::ConfigError);
}

TEST_CASE("namespace: -n, then the config file, then the kubeconfig context") {
  const std::string dir = trainctl::testing::make_temp_dir("config-namespace");
  const std::string kubeconfig = dir + "/kubeconfig";
  std::ofstream(kubeconfig)
      << "apiVersion: v1\nkind: Config\ncurrent-context: c\n"
         "clusters:\n- name: c\n  cluster: {server: 'https://127.0.0.1:1'}\n"
         "users:\n- name: u\n  user: {}\n"
         "contexts:\n- name: c\n  context: {cluster: c, user: u, namespace: from-context}\n";
  trainctl::GlobalOptions g;
  g.kubeconfig = kubeconfig;
  trainctl::Factory f(trainctl::IOStreams::test(), &g);
  f.set_user_config({});
  CHECK(f.namespace_() == "from-context");
  trainctl::UserConfig c;
  c.namespace_ = "from-config";
  f.set_user_config(c);
  CHECK(f.namespace_() == "from-config");
  CHECK(f.rest_config().namespace_ == "from-config");
  g.namespace_ = "from-flag";
  CHECK(f.namespace_() == "from-flag");
}

TEST_CASE("config view prints the settings and the effective namespace") {
  Tree t;
  t.factory.set_user_config(trainctl::parse_user_config(kConfig, "/cfg.yaml"));
  t.app.parse(rev({"config", "view", "-o", "json"}));
  const auto j = nlohmann::json::parse(t.factory.io().out_text());
  CHECK(j["found"] == true);
  CHECK(j["effectiveNamespace"] == "team-a");
  CHECK(j["settings"]["image"] == "cfg/image:1");
  CHECK(j["settings"]["submit"]["pytorch"]["label"] == nlohmann::json({"team=a", "tier=b"}));
}
