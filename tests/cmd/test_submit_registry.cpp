// The submit commands come from the registry of submit kinds (lib/submit/kinds/kinds.def): one
// command per kind that has one, with the kind's help, alias and flags; a kind is found by its
// job kind without a switch; the FlagSet a kind fills reaches CLI11 as declared.
#include <CLI/CLI.hpp>
#include <catch2/catch.hpp>

#include "cmd/commands.h"
#include "cmd_harness.h"
#include "submit/flags.h"
#include "submit/kind_part.h"
#include "submit/kinds/kinds.h"
#include "submit/kinds/torchrun.h"
#include "submit/kinds/trainjob.h"
#include "submit/submit_kind.h"

namespace submit = trainctl::submit;

namespace {

// A kind that exists only in this test: its own Rules and flags, nothing registered elsewhere.
class ExampleKind final : public submit::SubmitKind {
 public:
  ExampleKind()
      : SubmitKind(trainctl::jobs::kind_named("pytorchjob"),
                   {.command = "example",
                    .alias = "ex",
                    .help = "Submit an example job",
                    .examples = "  trainctl submit example --name=a\n",
                    .template_dir = "pytorch"}) {}
  std::vector<std::string> derived_names(const submit::Plan&) const override { return {}; }
  std::vector<nlohmann::json> build(const submit::Plan&, const trainctl::render::TemplateSet&) const override {
    return {};
  }
  std::vector<submit::KeyValue> chief_pod_labels(const submit::Plan&) const override { return {}; }

 protected:
  void add_flags(submit::FlagSet& f, submit::SubmitOptions& o) const override {
    f.option("--name", o.name, "Job name").require();
    f.repeatable("--env", o.envs, "KEY=VALUE");
    f.alias("--Env", o.envs);
    f.flag("--wait{running}", o.wait, "Wait");
    f.option("--workers", o.workers, "Workers").with_default();
    f.option("command", o.command_args, "The command");
  }
};

}  // namespace

TEST_CASE("submit: one command per registered kind that has one, with its help and alias") {
  Harness h;
  CLI::App app{"trainctl", "trainctl"};
  trainctl::setup_submit(app, h.factory);
  CLI::App* group = app.get_subcommand("submit");
  std::vector<std::string> names;
  std::string listed;
  for (const submit::SubmitKind* kind : submit::submit_commands()) {
    INFO(kind->rules.command);
    CLI::App* cmd = group->get_subcommand(kind->rules.command);
    CHECK(cmd->get_description() == kind->rules.help);
    CHECK(cmd->get_aliases() == std::vector<std::string>{kind->rules.alias});
    CHECK(cmd->get_option("--name")->get_required());
    names.push_back(kind->rules.command);
    listed += (listed.empty() ? "" : ", ") + kind->rules.command;
  }
  // In the registry's order; a kind added later comes after these.
  REQUIRE(names.size() >= 5);
  CHECK(std::vector<std::string>(names.begin(), names.begin() + 5) ==
        std::vector<std::string>{"pytorch", "mpi", "volcano", "tf", "trainjob"});
  std::vector<std::string> in_group;
  for (const CLI::App* cmd : group->get_subcommands({})) in_group.push_back(cmd->get_name());
  CHECK(in_group == names);
  CHECK(group->get_description() == "Submit a training job (" + listed + ")");
  // A kind without a command of its own is still a kind: submit pytorch --api none makes it.
  CHECK(submit::submit_kinds().size() > names.size());
}

TEST_CASE("submit: a job kind's submit kind is found in the registry, not by a switch") {
  for (const submit::SubmitKind* kind : submit::submit_kinds()) {
    INFO(kind->rules.template_dir);
    CHECK(&submit::submit_kind_for(kind->job) == kind);
  }
  CHECK(submit::submit_kind_of_command("tf").rules.template_dir == "tf");
  CHECK_THROWS(submit::submit_kind_of_command("nope"));
  CHECK(submit::submit_commands_where([](const submit::SubmitKind& k) {
          return k.rules.worker_image != submit::WorkerImage::Refused;
        }) == "submit pytorch and submit tf");
}

TEST_CASE("submit: the flags a kind declares reach CLI11 as declared") {
  const ExampleKind kind;
  submit::SubmitOptions o;
  const submit::FlagSet flags = kind.flags(o);
  CHECK(o.kind == &kind);
  CLI::App app{"example"};
  trainctl::add_submit_flags(app, flags);
  // Required, hidden alias, repeatable without swallowing the command, a switch's {default}.
  CHECK_THROWS_AS(app.parse(std::vector<std::string>{"cmd"}), CLI::RequiredError);
  o = submit::SubmitOptions{};
  CLI::App again{"example"};
  trainctl::add_submit_flags(again, kind.flags(o));
  // (CLI11 takes the arguments last first.)
  again.parse(std::vector<std::string>{"python train.py", "--wait", "B=2", "--Env", "A=1", "--Env", "--name=a"});
  CHECK(o.name == "a");
  CHECK(o.envs == std::vector<std::string>{"A=1", "B=2"});
  CHECK(o.wait == "running");
  CHECK(o.command_args == std::vector<std::string>{"python train.py"});
  CHECK(again.get_option("--Env")->get_group().empty());  // hidden from --help
  CHECK(again.get_option("--env")->get_group() == "Options");
  CHECK(again.get_option("--workers")->get_default_str() == "1");
}

TEST_CASE("FlagSet::find names a flag by any of its spellings") {
  submit::SubmitOptions o;
  submit::FlagSet f;
  submit::add_training_flags(f, o, submit::submit_kind_of_command("mpi").rules);
  CHECK(f.find("--host-network").names == "--hostNetwork,--host-network");
  CHECK(f.find("--hostNetwork").names == "--hostNetwork,--host-network");
  CHECK(f.find("--queue").names == "--queue{true}");
  CHECK(f.find("-e").names == "-e,--env");
  CHECK_THROWS(f.find("--no-such-flag"));
}

// Doctor names and dry-runs each kind's smallest command line (Rules::minimal_flags): parsed
// by the flags of the kind's command, it must make that kind, and nothing else.
TEST_CASE("submit: every kind's smallest command line makes that kind") {
  for (const submit::SubmitKind* kind : submit::submit_kinds()) {
    INFO(kind->job.title);
    const submit::SubmitOptions o = submit::minimal_options(*kind, "a", "busybox", "true");
    CHECK(&submit::submit_kind_for(o) == kind);
  }
  CHECK(submit::kind_part<submit::TrainJobOptions>(
            submit::minimal_options(submit::kinds::trainjob(), "a", "i", "c"))
            .runtime == "torch-distributed");
  CHECK(submit::kind_part<submit::TorchrunOptions>(
            submit::minimal_options(submit::kinds::pytorch_none(), "a", "i", "c"))
            .operator_ == "none");
}
