// Nothing to compile: the target exists for include/CMalloc.h.
#include "CMalloc.h"
