#include "print/pending_view.h"

#include "print/escape.h"

namespace trainctl::print {

std::string pending_view(const jobs::PendingReason& p) {
  if (p.empty()) return "";
  std::string out = "\nPending:     " + sanitize(p.reason) + ": " + sanitize(p.message) + "\n";
  if (!p.details.empty()) out += "             " + sanitize(p.details.front()) + "\n";
  if (p.details.size() > 1)
    out += "             (" + std::to_string(p.details.size() - 1) + " more in -o json)\n";
  return out;
}

}  // namespace trainctl::print
