// Nothing to compile: the target exists for include/CGettext.h.
#include "CGettext.h"
