// The command tree. Each setup_* registers one subcommand (flags, help, example) on its
// parent and binds its run function; cmd/main.cpp calls them in order.
#pragma once

namespace CLI {
class App;
}

namespace trainctl {

class Factory;

void setup_submit(CLI::App& root, Factory& f);  // submit pytorch|mpi|volcano
void setup_submit_pytorch(CLI::App& submit, Factory& f);
void setup_submit_mpi(CLI::App& submit, Factory& f);
void setup_submit_volcano(CLI::App& submit, Factory& f);
void setup_list(CLI::App& root, Factory& f);
void setup_get(CLI::App& root, Factory& f);
void setup_logs(CLI::App& root, Factory& f);
void setup_top(CLI::App& root, Factory& f);  // top node|job
void setup_top_node(CLI::App& top, Factory& f);
void setup_top_job(CLI::App& top, Factory& f);
void setup_data(CLI::App& root, Factory& f);  // data list
void setup_data_list(CLI::App& data, Factory& f);
void setup_delete(CLI::App& root, Factory& f);
void setup_completion(CLI::App& root, Factory& f);
void setup_complete(CLI::App& root, Factory& f);  // hidden __complete, used by the completion scripts
void setup_gendocs(CLI::App& root, Factory& f);   // hidden __gendocs DIR: docs/commands/*.md, man page
void setup_config(CLI::App& root, Factory& f);    // config view
void setup_version(CLI::App& root, Factory& f);
void setup_templates(CLI::App& root, Factory& f);  // templates export DIR

// Registers every command on root and the global flags into the Factory's GlobalOptions.
void setup_all(CLI::App& root, Factory& f, struct GlobalOptions& globals);
// The same for a command line about to be parsed, for start-up time: when it names a
// command that does not read the tree (not completion, __complete or __gendocs) and asks
// for no help at the root, only that command is registered, with the global flags.
// Parsing, help and errors for that command line are the same as with setup_all.
void setup_for_args(CLI::App& root, Factory& f, struct GlobalOptions& globals, int argc, const char* const* argv);

}  // namespace trainctl
