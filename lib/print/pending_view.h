// get's explanation of a pending job (jobs/pending_reason.h): one line with the reason and
// message, a second with the first further detail; the rest are in -o json.
#pragma once

#include <string>

#include "jobs/diagnose/pending_reason.h"

namespace trainctl::print {

// "" when nothing explains it.
std::string pending_view(const jobs::PendingReason& pending);

}  // namespace trainctl::print
