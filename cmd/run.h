// Helpers shared by the subcommand files: binding a run function, examples in help.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <span>
#include <string>

#include "cmd/factory.h"
#include "core/errors.h"
#include "jobs/kind.h"
#include "print/output.h"

namespace trainctl {

// What a command does with its parsed options. setup_x(parent, f, run = run_x) binds it, so
// a test can pass its own and capture the options without running anything.
template <typename Options>
using RunFn = std::function<void(const Options&, Factory&)>;

// Makes `fn` the action of `cmd`, after the global flags are applied.
inline void bind_run(CLI::App* cmd, Factory& f, std::function<void()> fn) {
  cmd->callback([&f, fn = std::move(fn)] {
    f.apply_globals();
    fn();
  });
}

// -A/--all-namespaces, with Arena's spelling --allNamespaces kept as a hidden alias.
inline void add_all_namespaces_flag(CLI::App* cmd, bool& value, const std::string& help) {
  cmd->add_flag("-A,--all-namespaces", value, help);
  cmd->add_flag("--allNamespaces", value, "Deprecated spelling of --all-namespaces")->group("");
}

// -o/--output taking one of `formats` (the first is the default); run_<verb> parses the
// value with print::parse_output over the same formats.
inline void add_output_option(CLI::App* cmd, std::string& value,
                              std::span<const print::OutputFormat> formats) {
  cmd->add_option("-o,--output", value, print::output_help(formats));
}

// -T/--type: one job kind, by the kinds' type names and aliases (jobs::type_names_text), which
// the help lists after `what` (and completion offers).
inline void add_type_option(CLI::App* cmd, std::string& value, const std::string& what) {
  cmd->add_option("-T,--type", value, what + ": " + jobs::type_names_text());
}

// The flags of the commands that list jobs (list, top job): -A, -T and -o.
inline void add_job_list_flags(CLI::App* cmd, bool& all_namespaces, std::string& type, std::string& output,
                               std::span<const print::OutputFormat> formats, const std::string& all_help) {
  add_all_namespaces_flag(cmd, all_namespaces, all_help);
  add_type_option(cmd, type, "Only jobs of this type");
  add_output_option(cmd, output, formats);
}

// Adds an "Examples:" block to a command's --help.
inline void set_examples(CLI::App* cmd, const std::string& examples) {
  cmd->footer("Examples:\n" + examples);
}

}  // namespace trainctl
