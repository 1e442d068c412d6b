// The submit kinds, one file each, declared from the registry (kinds.def); submit_kind.cpp's
// submit_kinds() is their only user, besides kinds that make another (submit pytorch --api).
#pragma once

#include "submit/submit_kind.h"

namespace trainctl::submit::kinds {

#define SUBMIT_KIND(name) const SubmitKind& name();
#include "submit/kinds/kinds.def"
#undef SUBMIT_KIND

}  // namespace trainctl::submit::kinds
