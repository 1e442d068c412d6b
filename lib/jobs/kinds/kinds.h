// Each kind's definition, one per file of this directory; kind.cpp's all_kinds() lists them.
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
