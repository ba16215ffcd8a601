// glibc's malloc extensions, which Swift's Glibc module leaves out: malloc_trim(3) lets the
// owner give the free pages of its heap back to the system once it is idle. And the same for
// the pages of code and read-only data its start-up touched (CMalloc.c).
#include <malloc.h>

/// Unmaps from this process (madvise MADV_DONTNEED) every page of a read-only mapping of a
/// file that holds no private copy — the program's and the libraries' code and constants,
/// font and cache files — so that only what is used again is mapped again, from the page
/// cache, on first touch. Writable mappings, and read-only ones holding a private copy of a
/// page (relocated data), are left alone: dropping those would lose their contents (nothing
/// can write to the others meanwhile; another thread touching them only maps them again).
/// Returns the number of mappings released, or -1 when
/// /proc/self/smaps cannot be read.
int wb_release_file_pages(void);
