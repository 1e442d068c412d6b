// How `trainctl doctor` shows its report: a header (cluster, namespace, how many requests),
// one section per kind of finding with one aligned line per finding (status, name, what was
// seen) and, where something does not work, its "why:" and "fix:" lines beneath, then the
// verdict on the default kind. The status is ✓ ✗ ! · on a UTF-8 terminal (coloured when colour
// is on), and the words ok, missing, warning, info elsewhere. Text from the cluster is shown
// escaped (print/escape.h).
#pragma once

#include <ostream>

#include "core/iostreams.h"
#include "doctor/report.h"

namespace trainctl::doctor {

void write_report(std::ostream& out, const Report& report, const IOStreams& io);

}  // namespace trainctl::doctor
