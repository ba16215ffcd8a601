// pixman.h includes <pixman-version.h> from its own directory, which is on the include path only
// with pkg-config's flags; this forwards to it in the pixman-1 directory, as CPixman.h reads
// pixman.h (see there).

#include <pixman-1/pixman-version.h>
