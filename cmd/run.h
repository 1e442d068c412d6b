// Helpers shared by the subcommand files: binding a run function, examples in help.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>

#include "cmd/factory.h"
#include "core/errors.h"

namespace trainctl {

// Makes `fn` the action of `cmd`, after the global flags are applied.
inline void bind_run(CLI::App* cmd, Factory& f, std::function<void()> fn) {
  cmd->callback([&f, fn = std::move(fn)] {
    f.apply_globals();
    fn();
  });
}

// Adds an "Examples:" block to a command's --help.
inline void set_examples(CLI::App* cmd, const std::string& examples) { cmd->footer("Examples:\n" + examples); }

}  // namespace trainctl
