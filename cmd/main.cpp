// trainctl entry point: builds the command tree (only the invoked command's part when that
// is enough, see setup_for_args), runs it, and maps errors to exit codes
// (docs/exit-codes.md). Nothing else in the program decides an exit code.
#include <CLI/CLI.hpp>

#include <csignal>
#include <filesystem>
#include <vector>
#include <iostream>

#include "cmd/commands.h"
#include "cmd/factory.h"
#include "cmd/parse_error.h"
#include "core/allocator.h"
#include "core/errors.h"
#include "core/log.h"
#include "print/error_text.h"
#include "print/escape.h"

int main(int argc, char** argv) {
  using namespace trainctl;
  std::signal(SIGPIPE, SIG_IGN);
  tune_allocator_for_list_pages();  // core/allocator.h
  GlobalOptions globals;
  Factory factory(IOStreams::system(), &globals);
  // As a kubectl plugin (docs/kubectl-plugin.md): `kubectl trainctl ...` runs kubectl-trainctl,
  // and kubectl's completion runs kubectl_complete-trainctl with the words after "trainctl"
  // (k8s.io/kubectl pkg/cmd/plugin/plugin_completion.go), which __complete answers.
  const std::string program = std::filesystem::path(argc > 0 ? argv[0] : "trainctl").filename().string();
  std::vector<const char*> args(argv, argv + argc);
  if (program == "kubectl_complete-trainctl") args.insert(args.begin() + 1, "__complete");
  const int nargs = static_cast<int>(args.size());
  CLI::App app{"trainctl submits and inspects distributed training jobs on Kubernetes.",
               program == "kubectl-trainctl" ? "kubectl trainctl" : "trainctl"};
  try {
    refuse_empty_values(nargs, args.data());
    setup_for_args(app, factory, globals, nargs, args.data());
    app.parse(nargs, args.data());
    std::cout.flush();
    return 0;
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << parse_error_text(app, e);
    return static_cast<int>(ExitCode::Usage);
  } catch (const Error& e) {
    std::cout.flush();
    // Text from the cluster is shown escaped; the error's own lines are its own (error_text.h).
    std::cerr << print::error_text(e);
    return static_cast<int>(e.code());
  } catch (const std::exception& e) {
    std::cout.flush();
    std::cerr << "error: internal error: " << print::sanitize(log::redact(e.what())) << '\n';
    return static_cast<int>(ExitCode::Error);
  }
}
