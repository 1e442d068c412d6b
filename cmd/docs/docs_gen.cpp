// trainctl __gendocs DIR: hidden; writes the command reference generated from the command
// tree into DIR/commands/*.md and DIR/man/trainctl.1 (the project keeps them in docs/).
#include "cmd/docs/docs_gen.h"

#include <CLI/CLI.hpp>
#include <memory>

#include "cmd/commands.h"
#include "cmd/run.h"

namespace trainctl {

void setup_gendocs(CLI::App& root, Factory& f) {
  auto dir = std::make_shared<std::string>();
  auto* cmd = root.add_subcommand("__gendocs", "Write the Markdown reference and the man page into DIR");
  cmd->group("");
  cmd->add_option("dir", *dir, "Directory (the project's docs/)")->required();
  bind_run(cmd, f, [dir, &root, &f] {
    for (const auto& p : docs::write_docs(root, *dir)) f.io().out() << p << '\n';
  });
}

}  // namespace trainctl
