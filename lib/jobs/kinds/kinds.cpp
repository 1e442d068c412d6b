// The registry: every job kind trainctl reads, in the order list prints them when ages tie.
#include "jobs/kinds/kinds.h"

namespace trainctl::jobs {

const std::vector<JobKind>& all_kinds() {
  static const std::vector<JobKind> kinds = {pytorchjob_kind(),   mpijob_kind(), volcanojob_kind(),
                                             pytorch_none_kind(), tfjob_kind(),  trainjob_kind()};
  return kinds;
}

}  // namespace trainctl::jobs
