// trainctl submit <kind>: one command per submit kind that has one (lib/submit/kinds/kinds.def),
// each with the flags its kind declares (submit::FlagSet), registered here with CLI11.
#include <CLI/CLI.hpp>
#include <memory>
#include <type_traits>

#include "cmd/submit.h"
#include "core/errors.h"
#include "submit/submit_kind.h"

namespace trainctl {

namespace {

CLI::Option* add_one(CLI::App& cmd, const submit::Flag& flag) {
  return std::visit(
      [&](auto* into) -> CLI::Option* {
        using T = std::remove_pointer_t<decltype(into)>;
        if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, std::string>) {
          if (flag.is_switch) return cmd.add_flag(flag.names, *into, flag.help);
        }
        if (flag.is_switch) throw Error("submit flag " + flag.names + ": a switch writes a bool or a string");
        return cmd.add_option(flag.names, *into, flag.help);
      },
      flag.into);
}

}  // namespace

void add_submit_flags(CLI::App& cmd, const submit::FlagSet& flags) {
  for (const submit::Flag& flag : flags.flags()) {
    CLI::Option* opt = add_one(cmd, flag);
    if (flag.repeatable) opt->allow_extra_args(false)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    if (flag.delimiter != '\0') opt->delimiter(flag.delimiter);
    if (flag.required) opt->required();
    if (flag.show_default) opt->capture_default_str();
    if (flag.hidden) opt->group("");
  }
}

void setup_submit_commands(CLI::App& submit, Factory& f, RunFn<submit::SubmitOptions> run) {
  for (const submit::SubmitKind* kind : submit::submit_commands()) {
    auto options = std::make_shared<submit::SubmitOptions>();
    auto* cmd = submit.add_subcommand(kind->rules.command, kind->rules.help);
    cmd->alias(kind->rules.alias);
    add_submit_flags(*cmd, kind->flags(*options));
    set_examples(cmd, kind->rules.examples);
    bind_run(cmd, f, [options, &f, run] { run(*options, f); });
  }
}

}  // namespace trainctl
