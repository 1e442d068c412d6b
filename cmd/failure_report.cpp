#include "cmd/failure_report.h"

#include "core/errors.h"
#include "core/log.h"
#include "jobs/root_cause.h"
#include "print/failure_view.h"

namespace trainctl {

void report_failure(Factory& f, const jobs::JobKind& kind, const std::string& ns, const std::string& name,
                    std::ostream& out) {
  try {
    if (auto failure = jobs::find_failure(f.client(), kind, ns, name)) out << print::failure_text(*failure);
  } catch (const Error& e) {
    log::debug("cannot read why job {} failed: {}", name, e.what());
  }
}

}  // namespace trainctl
