// An error as trainctl prints it on stderr: "error: MESSAGE", then the error's own lines
// (the choices it offers) indented under it. Each part is escaped on its own: the line breaks
// between the parts are trainctl's, every other control character (a line break in a name or
// a server's message included) is shown escaped (escape.h). Secrets are redacted first.
#pragma once

#include <string>

#include "core/errors.h"

namespace trainctl::print {

std::string error_text(const Error& e);

}  // namespace trainctl::print
