// How the process's allocator keeps freed memory (glibc malloc; a no-op elsewhere). The
// numbers and why they pay are in docs/performance.md ("The allocator").
#pragma once

namespace trainctl {

// Tunes glibc's malloc for trainctl's reads: list pages of about 1 MB are allocated and freed
// one after another, and one thread reads the next page ahead.
//  - Freed heap up to 64 MB is kept (M_TRIM_THRESHOLD) and blocks under 32 MB come from the
//    heap, not mmap (M_MMAP_THRESHOLD): otherwise each page's body is returned to the kernel
//    and faulted in again (20,000 minor faults and about 5 % of list -A's CPU).
//  - One arena (M_ARENA_MAX): the watch and read-ahead threads would otherwise get their own,
//    each holding its own free memory beside the main one (6-8 MB more at the peak of list -A -w
//    at 150,000 pods; list -A alone is 2.8 MB lower without it: docs/performance.md, "The
//    allocator").
// Call once, first thing in main().
void tune_allocator_for_list_pages();

}  // namespace trainctl
