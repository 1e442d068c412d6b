// The command tree. Each command's header declares its options, its run function and its
// setup_x(parent, f, run = run_x), which registers it (flags, help, examples) and binds run;
// the group commands below only hold subcommands. setup_all wires the whole tree.
#pragma once

#include "cmd/config_view.h"
#include "cmd/data_list.h"
#include "cmd/delete.h"
#include "cmd/doctor.h"
#include "cmd/get.h"
#include "cmd/list.h"
#include "cmd/logs.h"
#include "cmd/queue_list.h"
#include "cmd/runtime_list.h"
#include "cmd/submit.h"
#include "cmd/suspend.h"
#include "cmd/templates.h"
#include "cmd/top_job.h"
#include "cmd/top_node.h"
#include "cmd/version.h"
#include "cmd/wait.h"

namespace trainctl {

void setup_submit(CLI::App& root, Factory& f);  // submit <kind>: one per kind (submit.h)
void setup_top(CLI::App& root, Factory& f);     // top node|job
void setup_data(CLI::App& root, Factory& f);    // data list
void setup_queue(CLI::App& root, Factory& f);   // queue list|pending
void setup_runtime(CLI::App& root, Factory& f);  // runtime list
void setup_completion(CLI::App& root, Factory& f);
void setup_complete(CLI::App& root, Factory& f);  // hidden __complete, used by the completion scripts
void setup_gendocs(CLI::App& root, Factory& f);   // hidden __gendocs DIR: docs/commands/*.md, man page

// Refuses (UsageError) a flag written with '=' and nothing after it, such as `--name=`: CLI11
// (App::_parse_arg) takes an empty value after '=' as no value and the next argument as the
// value instead, so `--name= cmd2 x` would name the job cmd2. Arguments after `--` and the
// words of __complete are left alone.
void refuse_empty_values(int argc, const char* const* argv);

// Registers every command on root and the global flags into the Factory's GlobalOptions.
void setup_all(CLI::App& root, Factory& f, struct GlobalOptions& globals);
// The same for a command line about to be parsed, for start-up time: when it names a
// command that does not read the tree (not completion, __complete or __gendocs) and asks
// for no help at the root, only that command is registered, with the global flags.
// Parsing, help and errors for that command line are the same as with setup_all.
void setup_for_args(CLI::App& root, Factory& f, struct GlobalOptions& globals, int argc, const char* const* argv);

}  // namespace trainctl
