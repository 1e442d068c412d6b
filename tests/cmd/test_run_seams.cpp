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
  h.client->on_get("/api/v1/namespaces/team-b/persistentvolumeclaims?limit=100",
                   trainctl::testing::FakeClient::list(nlohmann::json::array()));
  h.run({"-n", "team-b", "data", "list", "-o", "json"});
  CHECK(h.out().find("[]") != std::string::npos);
  CHECK_NOTHROW(h.client->verify());
}

// kubectl's Complete/Validate/Run (kubernetes/kubectl@v0.36.2:pkg/cmd/delete/delete.go: Complete,
// Validate, RunDelete): the options a run function is handed are validated and completed, and
// a bad flag is refused before it runs.
TEST_CASE("get, delete, wait, logs and top job hand run validated, completed options") {
  using trainctl::print::OutputFormat;
  Harness h;
  trainctl::GetOptions get;
  parse([&](CLI::App& app, Factory& f) {
    trainctl::setup_get(app, f, [&](const trainctl::GetOptions& o, Factory&) { get = o; });
  }, h, {"get", "a", "-T", "mpi", "-o", "json", "-g", "--idle-window", "30m"});
  CHECK(get.format == OutputFormat::Json);
  REQUIRE(get.kinds.size() == 1);
  CHECK(get.kinds[0]->name == "mpijob");
  REQUIRE(get.idle);
  CHECK(get.idle->window == std::chrono::minutes(30));

  trainctl::DeleteOptions del;
  parse([&](CLI::App& app, Factory& f) {
    trainctl::setup_delete(app, f, [&](const trainctl::DeleteOptions& o, Factory&) { del = o; });
  }, h, {"delete", "a", "b"});
  CHECK(del.kinds.size() == trainctl::jobs::all_kinds().size());

  trainctl::WaitOptions wait;
  parse([&](CLI::App& app, Factory& f) {
    trainctl::setup_wait(app, f, [&](const trainctl::WaitOptions& o, Factory&) { wait = o; });
  }, h, {"wait", "a", "--timeout", "2m", "-o", "json", "-T", "volcano"});
  CHECK(wait.format == OutputFormat::Json);
  CHECK(wait.timeout_seconds == std::chrono::seconds(120));
  REQUIRE(wait.kinds.size() == 1);
  CHECK(wait.kinds[0]->name == "volcanojob");

  trainctl::LogsOptions logs;
  parse([&](CLI::App& app, Factory& f) {
    trainctl::setup_logs(app, f, [&](const trainctl::LogsOptions& o, Factory&) { logs = o; });
  }, h, {"logs", "a", "--since", "90s", "-t", "5"});
  CHECK(logs.window.since_seconds == 90);
  CHECK(logs.window.tail == 5);
  CHECK(logs.kinds.size() == trainctl::jobs::all_kinds().size());

  trainctl::TopJobOptions top;
  parse([&](CLI::App& app, Factory& f) {
    auto* t = app.add_subcommand("top");
    trainctl::setup_top_job(*t, f, [&](const trainctl::TopJobOptions& o, Factory&) { top = o; });
  }, h, {"top", "job", "a", "-o", "yaml", "--idle-threshold", "10"});
  CHECK(top.format == OutputFormat::Yaml);
  REQUIRE(top.idle);
  CHECK(top.idle->threshold == 10.0);
  CHECK(h.client->requests().empty());
}

TEST_CASE("a bad flag of get, delete or wait is refused before run is called") {
  Harness h;
  int runs = 0;
  auto refused = [&](auto setup, const std::vector<std::string>& args, const std::string& message) {
    CHECK_THROWS_MATCHES(parse(setup, h, args), trainctl::UsageError, Catch::Message(message));
  };
  refused([&](CLI::App& app, Factory& f) {
    trainctl::setup_get(app, f, [&](const trainctl::GetOptions&, Factory&) { ++runs; });
  }, {"get", "a", "-g", "--idle-window", "30s"}, "--idle-window must be at least 1m");
  refused([&](CLI::App& app, Factory& f) {
    trainctl::setup_delete(app, f, [&](const trainctl::DeleteOptions&, Factory&) { ++runs; });
  }, {"delete", "a", "-T", "nope"}, "unknown job type \"nope\": use " + trainctl::jobs::type_names_text());
  refused([&](CLI::App& app, Factory& f) {
    trainctl::setup_wait(app, f, [&](const trainctl::WaitOptions&, Factory&) { ++runs; });
  }, {"wait", "a", "-o", "yaml"}, "unknown output format \"yaml\": use table|json");
  refused([&](CLI::App& app, Factory& f) {
    trainctl::setup_wait(app, f, [&](const trainctl::WaitOptions&, Factory&) { ++runs; });
  }, {"wait", "a", "--timeout", "soon"},
          "invalid --timeout \"soon\": use a duration such as 90s, 30m or 2h");
  CHECK(runs == 0);
  CHECK(h.client->requests().empty());
}
