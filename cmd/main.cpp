// trainctl entry point: builds the command tree, runs it, and maps errors to exit codes
// (docs/exit-codes.md). Nothing else in the program decides an exit code.
#include <CLI/CLI.hpp>

#include <csignal>
#include <iostream>

#include "cmd/commands.h"
#include "cmd/factory.h"
#include "core/errors.h"
#include "core/log.h"

int main(int argc, char** argv) {
  using namespace trainctl;
  std::signal(SIGPIPE, SIG_IGN);
  GlobalOptions globals;
  Factory factory(IOStreams::system(), &globals);
  CLI::App app{"trainctl submits and inspects distributed training jobs on Kubernetes.", "trainctl"};
  try {
    setup_all(app, factory, globals);
    app.parse(argc, argv);
    std::cout.flush();
    return 0;
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "error: " << e.what() << "\nRun 'trainctl --help' (or the command's --help) for usage.\n";
    return static_cast<int>(ExitCode::Usage);
  } catch (const Error& e) {
    std::cout.flush();
    std::cerr << "error: " << log::redact(e.what()) << '\n';
    return static_cast<int>(e.code());
  } catch (const std::exception& e) {
    std::cout.flush();
    std::cerr << "error: internal error: " << log::redact(e.what()) << '\n';
    return static_cast<int>(ExitCode::Error);
  }
}
