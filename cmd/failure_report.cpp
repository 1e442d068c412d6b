#include "cmd/failure_report.h"

#include <exception>

#include "core/log.h"
#include "print/failure_view.h"

namespace trainctl {

std::optional<jobs::Failure> read_failure(Factory& f, const jobs::JobKind& kind, const std::string& ns,
                                          const std::string& name) {
  try {
    return jobs::find_failure(f.client(), kind, ns, name);
  } catch (const std::exception& e) {
    log::debug("cannot read why job {} failed: {}", name, e.what());
    return std::nullopt;
  }
}

void report_failure(Factory& f, const jobs::JobKind& kind, const std::string& ns, const std::string& name,
                    std::ostream& out) {
  if (auto failure = read_failure(f, kind, ns, name)) out << print::failure_text(*failure);
}

}  // namespace trainctl
