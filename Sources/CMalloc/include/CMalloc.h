// glibc's malloc extensions, which Swift's Glibc module leaves out: malloc_trim(3) lets the
// owner give the free pages of its heap back to the system once it is idle.
#include <malloc.h>
