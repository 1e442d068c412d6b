// Which kubeconfig files are read and how they merge: kubectl's loading rules.
#include <catch2/catch.hpp>

#include "core/errors.h"
#include "kube/config.h"
#include "support/paths.h"
#include "test_kubeconfig_support.h"

using namespace trainctl;
using namespace trainctl::kube;
using trainctl::kube::test::fixture;
using trainctl::kube::test::load_error;
using trainctl::kube::test::options_with_env;

TEST_CASE("KUBECONFIG with several files: first file wins per name, current-context from the first") {
  std::string first = fixture("merge/first.yaml");
  std::string second = fixture("merge/second.yaml");
  auto o = options_with_env({{"KUBECONFIG", first + ":" + second}});
  RestConfig c = load_rest_config(o);
  // current-context ctx-a comes from first.yaml; cluster "shared" is defined by both files.
  CHECK(c.context_name == "ctx-a");
  CHECK(c.cluster_name == "shared");
  CHECK(c.server == "https://first.example:6443");
  CHECK(c.bearer_token == "first-alice-token");
  CHECK(c.namespace_ == "team-a");
  CHECK(c.source == first + ", " + second);

  SECTION("reversed order flips every shared name") {
    auto r = options_with_env({{"KUBECONFIG", second + ":" + first}});
    RestConfig rc = load_rest_config(r);
    CHECK(rc.context_name == "ctx-b");
    CHECK(rc.server == "https://only-second.example");
    CHECK(rc.username == "bob");
    CHECK(rc.password == "second-bob-password");
    r.context = "ctx-a";  // context from first.yaml, but cluster "shared" and user "alice" from second.yaml
    RestConfig mixed = load_rest_config(r);
    CHECK(mixed.server == "https://second.example:6443");
    CHECK(mixed.bearer_token == "second-alice-token");
  }
  SECTION("a context defined in both files is taken whole from the first") {
    o.context = "shared-ctx";
    RestConfig s = load_rest_config(o);
    CHECK(s.namespace_ == "from-first");
    CHECK(s.cluster_name == "only-first");
    CHECK(s.server == "https://only-first.example:6443");  // trailing slash dropped
  }
  SECTION("names only the second file defines are still available") {
    o.context = "ctx-b";
    RestConfig b = load_rest_config(o);
    CHECK(b.server == "https://only-second.example");
    CHECK(b.namespace_ == "team-b");
  }
}

TEST_CASE("current-context comes from the first file that sets one") {
  std::string none = fixture("merge/no-current.yaml");
  auto o = options_with_env({{"KUBECONFIG", none + ":" + fixture("merge/second.yaml") + ":" + fixture("merge/first.yaml")}});
  RestConfig c = load_rest_config(o);
  CHECK(c.context_name == "ctx-b");
  o.context = "ctx-c";
  RestConfig third = load_rest_config(o);
  CHECK(third.server == "https://third.example");
  CHECK(third.user_name.empty());
  CHECK(third.bearer_token.empty());
}

TEST_CASE("KUBECONFIG entries that do not exist are skipped, empty and repeated ones ignored") {
  std::string first = fixture("merge/first.yaml");
  auto o = options_with_env({{"KUBECONFIG", "/nonexistent/a.yaml::" + first + ":" + first + ":/nonexistent/b"}});
  RestConfig c = load_rest_config(o);
  CHECK(c.context_name == "ctx-a");
  CHECK(c.source == first);

  auto none = options_with_env({{"KUBECONFIG", "/nonexistent/a:/nonexistent/b"}, {"HOME", fixture("merge")}});
  CHECK(load_error(none) == "no kubeconfig found: none of the files in KUBECONFIG exist (/nonexistent/a:/nonexistent/b)");
}

TEST_CASE("--kubeconfig wins over KUBECONFIG and HOME; a missing one is an error") {
  auto o = options_with_env({{"KUBECONFIG", fixture("merge/first.yaml")}});
  o.kubeconfig_path = fixture("merge/second.yaml");
  CHECK(load_rest_config(o).context_name == "ctx-b");

  o.kubeconfig_path = "/nonexistent/dir/config";
  CHECK(load_error(o) == "kubeconfig /nonexistent/dir/config: file does not exist");
}

TEST_CASE("~/.kube/config is read when neither --kubeconfig nor KUBECONFIG is set") {
  std::string home = trainctl::testing::make_temp_dir("kubeconfig-home");
  auto o = options_with_env({{"HOME", home}, {"KUBECONFIG", ""}});
  CHECK(load_error(o) == "no kubeconfig found: set --kubeconfig or KUBECONFIG, or create ~/.kube/config");
  CHECK(resolve_namespace(o) == "default");

  test::write_text(home + "/.kube/config", test::read_text(fixture("merge/second.yaml")));
  RestConfig c = load_rest_config(o);
  CHECK(c.context_name == "ctx-b");
  CHECK(c.source == home + "/.kube/config");
  CHECK(resolve_namespace(o) == "team-b");
}

TEST_CASE("--context selects a context; an unknown one is reported with the files") {
  std::string second = fixture("merge/second.yaml");
  auto o = options_with_env({});
  o.kubeconfig_path = second;
  o.context = "no-namespace";
  RestConfig c = load_rest_config(o);
  CHECK(c.context_name == "no-namespace");
  CHECK(c.namespace_ == "default");

  o.context = "x";
  CHECK(load_error(o) == "context \"x\" not found in " + second);
  CHECK_THROWS_AS(resolve_namespace(o), ConfigError);
}

TEST_CASE("namespace: -n, else the context's, else default") {
  auto o = options_with_env({});
  o.kubeconfig_path = fixture("merge/first.yaml");
  CHECK(load_rest_config(o).namespace_ == "team-a");
  CHECK(resolve_namespace(o) == "team-a");
  o.namespace_ = "override";
  CHECK(load_rest_config(o).namespace_ == "override");
  CHECK(resolve_namespace(o) == "override");
  o.namespace_.clear();
  o.context = "no-namespace";
  o.kubeconfig_path = fixture("merge/second.yaml");
  CHECK(resolve_namespace(o) == "default");
}

TEST_CASE("resolve_namespace does not need a usable cluster") {
  auto o = options_with_env({});
  o.kubeconfig_path = fixture("broken/missing-fields.yaml");
  // current-context "no-cluster" has no cluster: loading fails, the namespace is still known.
  CHECK_THROWS_AS(load_rest_config(o), ConfigError);
  CHECK(resolve_namespace(o) == "ns-of-no-cluster");

  o.kubeconfig_path = fixture("broken/dangling-current.yaml");
  CHECK(load_error(o) == "context \"gone\" not found in " + o.kubeconfig_path);
  CHECK(resolve_namespace(o) == "default");
  o.context = "here";
  CHECK(resolve_namespace(o) == "here-ns");
}

TEST_CASE("a kubeconfig without current-context asks for --context") {
  auto o = options_with_env({});
  o.kubeconfig_path = fixture("merge/no-current.yaml");
  CHECK(load_error(o) == "kubeconfig " + o.kubeconfig_path +
                           ": no current-context is set; choose one with --context (contexts: ctx-c)");
  CHECK(resolve_namespace(o) == "default");
}
