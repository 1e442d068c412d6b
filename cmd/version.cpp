// trainctl version: version, git commit, build type; -o json for scripts.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cmd/version.h"
#include "cmd/run.h"
#include "core/version.h"

namespace trainctl {

void run_version(const VersionOptions& o, Factory& f) {
  const VersionInfo& v = version_info();
  auto& out = f.io().out();
  if (o.output == "json") {
    nlohmann::json j = {{"version", v.version},       {"gitCommit", v.git_commit},
                        {"gitTreeState", v.git_tree_state}, {"buildType", v.build_type},
                        {"buildDate", v.build_date},  {"compiler", v.compiler},
                        {"platform", v.platform}};
    out << j.dump(2) << '\n';
    return;
  }
  if (o.short_) {
    out << v.version << '\n';
    return;
  }
  out << "trainctl: v" << v.version << '\n'
      << "  GitCommit:    " << v.git_commit << '\n'
      << "  GitTreeState: " << v.git_tree_state << '\n'
      << "  BuildType:    " << v.build_type << '\n'
      << "  BuildDate:    " << v.build_date << '\n'
      << "  Compiler:     " << v.compiler << '\n'
      << "  Platform:     " << v.platform << '\n';
}

void setup_version(CLI::App& root, Factory& f, RunFn<VersionOptions> run) {
  auto o = std::make_shared<VersionOptions>();
  auto* cmd = root.add_subcommand("version", "Print the version of trainctl");
  cmd->add_option("-o,--output", o->output, "Output format: json")->check(CLI::IsMember({"json"}));
  cmd->add_flag("--short", o->short_, "Print only the version number");
  set_examples(cmd, "  trainctl version\n  trainctl version -o json\n");
  bind_run(cmd, f, [o, &f, run = std::move(run)] { run(*o, f); });
}

}  // namespace trainctl
