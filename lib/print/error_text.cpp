#include "print/error_text.h"

#include "core/log.h"
#include "print/escape.h"

namespace trainctl::print {

std::string error_text(const Error& e) {
  std::string out = "error: " + sanitize(log::redact(e.message())) + "\n";
  for (const auto& line : e.lines()) out += "  " + sanitize(log::redact(line)) + "\n";
  return out;
}

}  // namespace trainctl::print
