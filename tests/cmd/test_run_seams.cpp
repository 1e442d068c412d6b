// setup_x(parent, f, run): a test passes its own run and sees the options the command line
// parsed to, with nothing sent to the cluster.
#include <catch2/catch.hpp>

#include "cmd/commands.h"
#include "cmd_harness.h"
#include "core/version.h"

using trainctl::Factory;

namespace {

// Parses `args` (after "trainctl") on an app holding only what `setup` registers.
template <typename Setup>
void parse(Setup setup, Harness& h, const std::vector<std::string>& args) {
  CLI::App app{"trainctl", "trainctl"};
  setup(app, h.factory);
  app.parse(std::vector<std::string>(args.rbegin(), args.rend()));
}

}  // namespace

TEST_CASE("list: the options -A -T -o parse to, without a request") {
  Harness h;
  trainctl::ListOptions seen;
  int runs = 0;
  parse([&](CLI::App& app, Factory& f) {
    trainctl::setup_list(app, f, [&](const trainctl::ListOptions& o, Factory&) {
      seen = o;
      ++runs;
    });
  }, h, {"ls", "-A", "-T", "py", "-o", "json"});
  CHECK(runs == 1);
  CHECK(seen.all_namespaces);
  CHECK(seen.type == "py");
  CHECK(seen.output == "json");
  CHECK(h.client->requests().empty());
}

TEST_CASE("submit pytorch: Arena's flags and the command reach the options") {
  Harness h;
  trainctl::submit::SubmitOptions seen;
  parse([&](CLI::App& app, Factory& f) {
    auto* submit = app.add_subcommand("submit");
    trainctl::setup_submit_commands(*submit, f, [&](const trainctl::submit::SubmitOptions& o, Factory&) { seen = o; });
  }, h, {"submit", "pytorch", "--name=mnist", "--gpus=1", "--workers=3", "--image=pytorch/pytorch", "--data=pvc:/data",
         "python train.py"});
  CHECK(seen.name == "mnist");
  CHECK(seen.gpus == 1);
  CHECK(seen.workers == 3);
  CHECK(seen.image == "pytorch/pytorch");
  CHECK(seen.data == std::vector<std::string>{"pvc:/data"});
  CHECK(seen.command_args == std::vector<std::string>{"python train.py"});
  CHECK(h.client->requests().empty());
}

TEST_CASE("top node and delete hand their arguments over as parsed") {
  Harness h;
  trainctl::TopNodeOptions node;
  parse([&](CLI::App& app, Factory& f) {
    auto* top = app.add_subcommand("top");
    trainctl::setup_top_node(*top, f, [&](const trainctl::TopNodeOptions& o, Factory&) { node = o; });
  }, h, {"top", "node", "gpu-a", "gpu-b", "-d"});
  CHECK(node.nodes == std::vector<std::string>{"gpu-a", "gpu-b"});
  CHECK(node.details);
  trainctl::DeleteOptions del;
  parse([&](CLI::App& app, Factory& f) {
    trainctl::setup_delete(app, f, [&](const trainctl::DeleteOptions& o, Factory&) { del = o; });
  }, h, {"delete", "a", "b", "-T", "mpi"});
  CHECK(del.names == std::vector<std::string>{"a", "b"});
  CHECK(del.type == "mpi");
  trainctl::SuspendOptions sus, res;
  parse([&](CLI::App& app, Factory& f) {
    trainctl::setup_suspend(app, f, [&](const trainctl::SuspendOptions& o, Factory&) { sus = o; });
  }, h, {"suspend", "a", "-T", "volcano"});
  CHECK(sus.name == "a");
  CHECK(sus.type == "volcano");
  parse([&](CLI::App& app, Factory& f) {
    trainctl::setup_resume(app, f, [&](const trainctl::SuspendOptions& o, Factory&) { res = o; });
  }, h, {"resume", "b"});
  CHECK(res.name == "b");
  CHECK(res.type.empty());
}

TEST_CASE("the harness runs the whole command tree, global flags included") {
  Harness h;
  h.run({"version", "--short"});
  CHECK(h.out() == std::string(trainctl::version_info().version) + "\n");
  h.client->on_get("/api/v1/namespaces/team-b/persistentvolumeclaims?limit=500",
                   trainctl::testing::FakeClient::list(nlohmann::json::array()));
  h.run({"-n", "team-b", "data", "list", "-o", "json"});
  CHECK(h.out().find("[]") != std::string::npos);
  CHECK_NOTHROW(h.client->verify());
}
