#include "core/allocator.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace trainctl {

void tune_allocator_for_list_pages() {
#if defined(__GLIBC__)
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_ARENA_MAX, 1);
#endif
}

}  // namespace trainctl
