// Applies the config file's submit defaults (docs/config.md) to a submit command's flags:
// after the command line is parsed, every configured flag the user did not give gets the
// configured value(s), converted and validated exactly as if typed. Flags always win.
#pragma once

#include "cmd/cli_fwd.h"

namespace trainctl {

class Factory;

// Binds the defaults to `cmd` (a submit command); the config is read only when it runs.
void bind_config_defaults(CLI::App& cmd, Factory& f);

}  // namespace trainctl
