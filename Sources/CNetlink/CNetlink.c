// Intentionally empty: CNetlink is header-only (constants, struct layouts and static inline
// bridges for macros), but SwiftPM needs one source file to build a C target.
#include "CNetlink.h"
