#include <algorithm>
#include <catch2/catch.hpp>

#include "cmd/completion/complete_engine.h"
#include "cmd/completion/completion_script.h"
#include "cmd/completion/completion_tree.h"
#include "completion_support.h"

using Catch::Matchers::UnorderedEquals;
using Catch::Matchers::VectorContains;
using trainctl::completion::complete;
using trainctl::completion::Result;
using Strings = std::vector<std::string>;

namespace {
Result run(const Strings& words, StubCluster* cluster = nullptr) {
  Tree t;
  StubCluster local;
  return complete(t.app, words, cluster ? *cluster : local);
}
Strings cands(const Strings& words) { return run(words).candidates; }
}  // namespace

TEST_CASE("values_from_help reads the documented list conventions") {
  using trainctl::completion::values_from_help;
  CHECK(values_from_help("Output format: wide (default), json, yaml or name") ==
        Strings{"wide", "json", "yaml", "name"});
  CHECK(values_from_help("Only jobs of this type: pytorchjob (pytorch, py), mpijob (mpi, mj)") ==
        Strings{"pytorchjob", "pytorch", "py", "mpijob", "mpi", "mj"});
  CHECK(values_from_help("Pods to delete when the job ends: Running, All or None (default Running)") ==
        Strings{"Running", "All", "None"});
  CHECK(values_from_help("torchrun processes per pod: auto, cpu, gpu or N") == Strings{"auto", "cpu", "gpu"});
  CHECK(values_from_help("none: run without the training-operator (Indexed Job + headless Service)") ==
        Strings{"none"});
  // Not lists: free text, paths, placeholders only, colons inside parentheses.
  CHECK(values_from_help("Mount a PVC: PVC_NAME:/mount/path (repeatable)").empty());
  CHECK(values_from_help("Path to the kubeconfig file (default: $KUBECONFIG, then ~/.kube/config)").empty());
  CHECK(values_from_help("Timeout of each API request, e.g. 30s; 0 for none").empty());
  CHECK(values_from_help("Job name").empty());
  CHECK(values_from_help(
            "Task NAME:REPLICAS[:IMAGE[:COMMAND]] (repeatable; default image and command: --image)")
            .empty());
}

TEST_CASE("__complete completes commands, then aliases when no name matches") {
  CHECK(cands({"sub"}) == Strings{"submit"});
  CHECK(cands({"submit", "py"}) == Strings{"pytorch"});
  CHECK(cands({"submit", "pytorchj"}) == Strings{"pytorchjob"});
  CHECK(cands({"top", ""}) == Strings{"node", "job", "queue"});
  CHECK(run({"sub"}).directive == trainctl::completion::kNoFileComp);
  // Hidden commands are never offered.
  const auto all = cands({""});
  CHECK_THAT(all, VectorContains(std::string("completion")));
  CHECK(std::none_of(all.begin(), all.end(), [](const std::string& c) { return c.rfind("__", 0) == 0; }));
  // Global flags before the command do not disturb the walk.
  CHECK(cands({"-n", "team-a", "--loglevel", "debug", "submit", "mp"}) == Strings{"mpi"});
}

TEST_CASE("__complete completes flags of the command and the global ones, hidden ones left out") {
  const auto f = cands({"list", "--"});
  CHECK_THAT(f, VectorContains(std::string("--all-namespaces")));
  CHECK_THAT(f, VectorContains(std::string("--output")));
  CHECK_THAT(f, VectorContains(std::string("--namespace")));       // global
  CHECK_THAT(f, !VectorContains(std::string("--allNamespaces")));  // hidden alias
  CHECK(cands({"submit", "pytorch", "--sync-m"}) == Strings{"--sync-mode"});
  CHECK(cands({"submit", "mpi", "--nproc"}).empty());  // hidden for mpi
}

TEST_CASE("__complete offers the values of enumerated flags") {
  CHECK(cands({"list", "-o", ""}) == Strings{"wide", "json", "yaml", "name"});
  CHECK(cands({"top", "job", "--output", ""}) == Strings{"wide", "json", "yaml"});
  CHECK(cands({"list", "--output=j"}) == Strings{"json"});
  CHECK_THAT(cands({"list", "-T", ""}),
             UnorderedEquals(Strings{"pytorchjob", "pytorch", "py", "mpijob", "mpi", "mj", "volcanojob",
                                     "volcano", "vj", "tfjob", "tensorflow", "tf", "trainjob", "tj"}));
  CHECK(cands({"submit", "pytorch", "--sync-mode", ""}) == Strings{"git", "rsync"});
  CHECK_THAT(cands({"submit", "pytorch", "--shell", ""}), UnorderedEquals(Strings{"bash", "sh"}));
  CHECK(cands({"submit", "pytorch", "--operator", ""}) == Strings{"none"});
  CHECK(cands({"submit", "mpi", "--clean-task-policy", ""}) == Strings{"Running", "All", "None"});
  CHECK_THAT(cands({"--loglevel", ""}), VectorContains(std::string("debug")));
  CHECK_THAT(cands({"get", "x", "--loglevel", "w"}), VectorContains(std::string("warn")));
  CHECK(cands({"completion", ""}) == Strings{"bash", "zsh", "fish"});
}

TEST_CASE("__complete asks the cluster for job, instance, namespace, PVC and node names") {
  StubCluster c;
  CHECK(run({"get", "mn"}, &c).candidates == Strings{"mnist", "mnist-mpi"});
  CHECK(run({"get", ""}, &c).directive == trainctl::completion::kNoFileComp);
  REQUIRE_FALSE(c.scopes.empty());
  CHECK(c.scopes.back().namespace_.empty());

  // -n, --context, --kubeconfig and -T typed on the line select where to look.
  c.scopes.clear();
  run({"--kubeconfig", "/tmp/kc", "--context=prod", "logs", "-n", "team-a", "-T", "mpi", ""}, &c);
  REQUIRE(c.scopes.size() == 1);
  CHECK(c.scopes[0].namespace_ == "team-a");
  CHECK(c.scopes[0].context == "prod");
  CHECK(c.scopes[0].kubeconfig == "/tmp/kc");
  CHECK(c.scopes[0].type == "mpi");
  CHECK(run({"-nteam-b", "delete", ""}, &c).candidates.size() == 3);
  CHECK(c.scopes.back().namespace_ == "team-b");

  // delete takes several names: those already typed are not offered again.
  CHECK(run({"delete", "mnist", "bert", ""}, &c).candidates == Strings{"mnist-mpi"});
  CHECK(run({"top", "job", ""}, &c).candidates.empty());  // top job takes no job name
  CHECK(run({"top", "node", "gpu"}, &c).candidates == Strings{"gpu-node-1"});

  CHECK(run({"logs", "mnist", "-i", ""}, &c).candidates == Strings{"mnist-master-0", "mnist-worker-0"});
  CHECK(c.instance_job == "mnist");
  CHECK(run({"logs", "-i", ""}, &c).candidates.empty());  // no job named yet

  CHECK(run({"list", "-n", "t"}, &c).candidates == Strings{"team-a"});
  CHECK(run({"list", "--namespace=k"}, &c).candidates == Strings{"kube-system"});
  CHECK(run({"--context", ""}, &c).candidates == Strings{"dev", "prod"});

  const auto data = run({"submit", "pytorch", "--data", "t"}, &c);
  CHECK(data.candidates == Strings{"training-data:"});
  CHECK(data.directive == (trainctl::completion::kNoFileComp | trainctl::completion::kNoSpace));
}

TEST_CASE("__complete leaves free-form values to the shell's file completion") {
  StubCluster c;
  auto r = run({"--kubeconfig", ""}, &c);
  CHECK(r.candidates.empty());
  CHECK(r.directive == trainctl::completion::kDefault);
  CHECK(run({"templates", "export", ""}, &c).directive == trainctl::completion::kDefault);
  CHECK(c.scopes.empty());  // nothing static asked the cluster
  // After "--" every word is a positional, even one that looks like a flag.
  CHECK(run({"get", "--", "-"}, &c).candidates.empty());
}

TEST_CASE("the __complete command prints candidates one per line, then the directive") {
  Tree t;
  t.app.parse(Strings{"", "-o", "list", "__complete"});  // reversed argv
  CHECK(t.factory.io().out_text() == "wide\njson\nyaml\nname\n:4\n");
}

TEST_CASE("the committed completion scripts are those the command tree generates") {
  // Regenerate with: trainctl completion bash > completions/trainctl.bash (zsh: _trainctl,
  // fish: trainctl.fish), or cmake --build BUILD --target update-generated.
  Tree t;
  const std::string dir = std::string(TRAINCTL_SOURCE_DIR) + "/completions/";
  CHECK(read_text(dir + "trainctl.bash") == trainctl::completion::bash_script(t.app));
  CHECK(read_text(dir + "_trainctl") == trainctl::completion::zsh_script(t.app));
  CHECK(read_text(dir + "trainctl.fish") == trainctl::completion::fish_script(t.app));
}

TEST_CASE("completion rejects an unknown shell") {
  Tree t;
  CHECK_THROWS_AS(t.app.parse(Strings{"powershell", "completion"}), CLI::ValidationError);
}
