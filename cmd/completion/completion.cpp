// trainctl completion bash|zsh|fish: prints a completion script generated from the command
// tree (commands, aliases, flags, enumerated values); live names come from `__complete`.
#include <CLI/CLI.hpp>
#include <memory>

#include "cmd/commands.h"
#include "cmd/completion/completion_script.h"
#include "cmd/run.h"

namespace trainctl {

void setup_completion(CLI::App& root, Factory& f) {
  auto shell = std::make_shared<std::string>();
  auto* cmd = root.add_subcommand("completion", "Print a shell completion script (bash, zsh or fish)");
  cmd->add_option("shell", *shell, "Shell: bash, zsh or fish")
      ->required()
      ->check(CLI::IsMember({"bash", "zsh", "fish"}));
  set_examples(cmd,
               "  # bash, this shell only (needs the bash-completion package for full support)\n"
               "  source <(trainctl completion bash)\n"
               "  # bash, every new shell\n"
               "  trainctl completion bash > ~/.local/share/bash-completion/completions/trainctl\n"
               "  # zsh: a directory of $fpath, then restart zsh\n"
               "  trainctl completion zsh > \"${fpath[1]}/_trainctl\"\n"
               "  # fish\n"
               "  trainctl completion fish > ~/.config/fish/completions/trainctl.fish\n");
  bind_run(cmd, f, [shell, &root, &f] {
    auto& out = f.io().out();
    if (*shell == "bash")
      out << completion::bash_script(root);
    else if (*shell == "zsh")
      out << completion::zsh_script(root);
    else
      out << completion::fish_script(root);
  });
}

}  // namespace trainctl
