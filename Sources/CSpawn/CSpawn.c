// Intentionally empty: CSpawn is a header with one declaration, but SwiftPM needs one source
// file to build a C target.
#include "CSpawn.h"
