// trainctl doctor: what this cluster, namespace and user can run, and what is missing, with
// the reason and the fix (lib/doctor, docs/doctor.md). Exit 0 when the namespace can run the
// default kind, 9 when it cannot; -o json|yaml for scripts (docs/json-output.md).
#pragma once

#include <string>

#include "cmd/run.h"

namespace trainctl {

struct DoctorOptions {
  static constexpr print::OutputFormat kFormats[] = {print::OutputFormat::Table, print::OutputFormat::Json,
                                                     print::OutputFormat::Yaml};
  std::string output;
  std::string type;  // -T: the kind whose readiness decides the exit code (default pytorchjob)
};

void run_doctor(const DoctorOptions& o, Factory& f);
void setup_doctor(CLI::App& root, Factory& f, RunFn<DoctorOptions> run = run_doctor);

}  // namespace trainctl
