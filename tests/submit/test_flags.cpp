// Command-line parsing with the real flag registration: spellings, Arena's hidden aliases,
// repeatable flags, the optional value of --wait and the positional command.
#include <CLI/CLI.hpp>
#include <catch2/catch.hpp>

#include "core/errors.h"
#include "submit/kind_part.h"
#include "submit/kinds/mpijob.h"
#include "submit/kinds/volcanojob.h"
#include "submit/plan.h"
#include "submit_testing.h"

using namespace trainctl;
using namespace trainctl::testing;

TEST_CASE("Arena's camelCase spellings are accepted as aliases", "[flags]") {
  auto a =
      parse_submit("pytorch", {"--name=x", "--image=i", "--syncMode=git", "--syncSource=https://h/r.git",
                               "--syncImage=s", "--workingDir=/w", "--dataDir=/h:/c", "--tensorboardImage=t",
                               "--cleanTaskPolicy=All", "--shm-size=1Gi", "--imagePullSecret=p", "cmd"});
  auto b = parse_submit("pytorch",
                        {"--name=x", "--image=i", "--sync-mode=git", "--sync-source=https://h/r.git",
                         "--sync-image=s", "--working-dir=/w", "--data-dir=/h:/c", "--tensorboard-image=t",
                         "--clean-task-policy=All", "--share-memory=1Gi", "--image-pull-secret=p", "cmd"});
  CHECK(render_submit(a) == render_submit(b));
  CHECK(a.sync_mode == "git");
  CHECK(a.working_dir == "/w");
  CHECK(a.data_dirs == std::vector<std::string>{"/h:/c"});
  CHECK(a.shm_size == "1Gi");
  auto v = parse_submit("volcano",
                        {"--name=v", "--taskImages=a", "--taskReplicas=3", "--taskName=t", "--taskCPU=1",
                         "--taskMemory=1Gi", "--taskPort=80", "--minAvailable=2", "--schedulerName=s"});
  const auto& vo = submit::kind_part<submit::VolcanoOptions>(v);  // the Volcano kind's own options
  CHECK(vo.task_images == std::vector<std::string>{"a"});
  CHECK(vo.task_replicas == 3);
  CHECK(vo.task_name == "t");
  CHECK(v.cpu == "1");
  CHECK(v.memory == "1Gi");
  CHECK(vo.task_port == 80);
  CHECK(v.min_available == 2);
  CHECK(vo.scheduler_name == "s");
}

TEST_CASE("repeatable flags take one value each and never swallow the command", "[flags]") {
  auto o = parse_submit(
      "pytorch", {"--name=x", "--image=i", "-e", "A=1", "--env", "B=2", "-d", "p:/d", "-a", "k=v", "-l",
                  "l=v", "--selector", "s=v", "--toleration", "all", "python train.py"});
  CHECK(o.envs == std::vector<std::string>{"A=1", "B=2"});
  CHECK(o.data == std::vector<std::string>{"p:/d"});
  CHECK(o.annotations == std::vector<std::string>{"k=v"});
  CHECK(o.labels == std::vector<std::string>{"l=v"});
  CHECK(o.selectors == std::vector<std::string>{"s=v"});
  CHECK(o.tolerations == std::vector<std::string>{"all"});
  CHECK(o.command_args == std::vector<std::string>{"python train.py"});
}

TEST_CASE("the command is the positional arguments joined by spaces, run by the shell", "[flags]") {
  auto objs = render_submit(parse_submit(
      "pytorch", {"--name=x", "--image=i", "--shell=bash", "--", "python", "train.py", "--lr=0.1"}));
  CHECK(main_container(objs[0], "Master")["command"] ==
        nlohmann::json::array({"bash", "-c", "python train.py --lr=0.1"}));
  // No command: refused, as Arena does; Volcano tasks may run their images' entrypoints.
  CHECK_THROWS_AS(render_submit(parse_submit("pytorch", {"--name=x", "--image=i"})), trainctl::UsageError);
  auto none = render_submit(parse_submit("volcano", {"--name=x", "--image=i"}));
  CHECK_FALSE(main_container(none[0], "task").contains("command"));
}

TEST_CASE("--wait takes an optional value; --dry-run, -o, --timeout, --template-dir", "[flags]") {
  CHECK(parse_submit("mpi", {"--name=x", "--image=i", "cmd"}).wait.empty());
  CHECK(parse_submit("mpi", {"--name=x", "--image=i", "--wait", "cmd"}).wait == "running");
  CHECK(parse_submit("mpi", {"--name=x", "--image=i", "--wait=finished", "cmd"}).wait == "finished");
  auto o = parse_submit("volcano", {"--name=x", "--image=i", "--dry-run", "-o", "json", "--timeout=5m",
                                    "--template-dir=/t", "cmd"});
  CHECK(o.dry_run);
  CHECK(o.output == "json");
  CHECK(o.timeout == "5m");
  CHECK(o.template_dir == "/t");
}

TEST_CASE("--gputopology=true and bare --gputopology; kind-specific defaults", "[flags]") {
  const auto topology = [](const std::string& flag) {
    return submit::kind_part<submit::MPIOptions>(parse_submit("mpi", {"--name=x", "--image=i", flag}))
        .gputopology;
  };
  CHECK(topology("--gputopology=true"));
  CHECK(topology("--gputopology"));
  CHECK_FALSE(topology("--gputopology=false"));
  // Another command's switch turned off is not refused (as before it was the MPI kind's own).
  CHECK_NOTHROW(submit::make_plan(
      parse_submit("pytorch", {"--name=x", "--image=i", "--gputopology=false", "c"}), "ns", {}));
  auto mpi = submit::make_plan(parse_submit("mpi", {"--name=x", "--image=i", "--gpus=4", "cmd"}), "ns", {});
  CHECK(mpi.clean_pod_policy == "All");
  CHECK(submit::kind_part<submit::MPIPlan>(mpi).slots_per_worker == 4);
  CHECK(mpi.expected_pods == 2);  // launcher + 1 worker
  auto cpu_only = submit::make_plan(parse_submit("mpi", {"--name=x", "--image=i", "cmd"}), "ns", {});
  CHECK(submit::kind_part<submit::MPIPlan>(cpu_only).slots_per_worker == 1);
  auto pt =
      submit::make_plan(parse_submit("pytorch", {"--name=x", "--image=i", "--workers=4", "cmd"}), "ns", {});
  CHECK(pt.clean_pod_policy == "Running");
  CHECK(pt.shm_size == "2Gi");
  CHECK(pt.working_dir == "/root");
  CHECK(pt.shell == "sh");
  CHECK(pt.expected_pods == 4);
  CHECK(pt.kind->name == "pytorchjob");
  auto none = submit::make_plan(parse_submit("pytorch", {"--name=x", "--image=i", "--operator=none", "cmd"}),
                                "ns", {});
  CHECK(none.kind->name == "batchjob");
}

TEST_CASE("--task splits NAME:REPLICAS:IMAGE:COMMAND around registry ports, tags and digests", "[flags]") {
  struct Case {
    std::string text, image, command;
  };
  const std::vector<Case> cases = {
      {"ps:2", "", ""},
      {"ps:2:paddle", "paddle", ""},
      {"ps:2:paddle:1.5.2", "paddle:1.5.2", ""},
      {"ps:2:paddle:python a.py", "paddle", "python a.py"},
      {"ps:2:paddle:1.5.2:python a.py --x=1:2", "paddle:1.5.2", "python a.py --x=1:2"},
      {"ps:2:registry:5000/team/paddle:1.5:run it", "registry:5000/team/paddle:1.5", "run it"},
      {"ps:2:registry:5000/paddle", "registry:5000/paddle", ""},
      {"ps:2:paddle@sha256:abcd:go now", "paddle@sha256:abcd", "go now"},
      {"ps:2:paddle:1.5@sha256:abcd:go", "paddle:1.5@sha256:abcd", "go"},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    auto p = submit::make_plan(
        parse_submit("volcano", {"--name=x", "--image=default-image", "--task=" + c.text, "dflt"}), "ns", {});
    const auto& tasks = submit::kind_part<submit::VolcanoPlan>(p).tasks;
    REQUIRE(tasks.size() == 1);
    CHECK(tasks[0].replicas == 2);
    CHECK(tasks[0].image == (c.image.empty() ? "default-image" : c.image));
    CHECK(tasks[0].command == (c.command.empty() ? "dflt" : c.command));
  }
}
