// The registry of job kinds: each kind's definition, one per file of this directory, and
// all_kinds() (kinds.cpp), which lists them. Adding a kind: its file, its line here and its
// line in kinds.cpp.
#pragma once

#include "jobs/kind.h"

namespace trainctl::jobs {

JobKind pytorchjob_kind();    // pytorchjob.cpp
JobKind mpijob_kind();        // mpijob.cpp
JobKind volcanojob_kind();    // volcanojob.cpp
JobKind pytorch_none_kind();  // pytorch_none.cpp
JobKind tfjob_kind();         // tfjob.cpp
JobKind trainjob_kind();      // trainjob.cpp

}  // namespace trainctl::jobs
