// CPixman: pixman, which the Wayland and GNOME backends draw with. The declarations are
// libpixman-1-dev's own <pixman.h>, read from the pixman-1 directory every distribution installs
// it in, so that no target needs an include path (an unsafe flag, which SwiftPM refuses in a
// dependency); pixman.h's own include of <pixman-version.h> is forwarded the same way by
// pixman-version.h beside this file. The functions are defined in CPixman.c, which loads
// libpixman-1.so.0 with dlopen(3) on the first call. window-banner-full is also the X11 owner,
// which draws with Xft and never needs pixman: linked, it would be mapped into every owner for
// nothing.
//
// When libpixman-1.so.0 cannot be loaded every call fails the way pixman reports failure: the
// image constructors return NULL, the others false or 0; cpixman_unavailable says why, for the
// Wayland connection to refuse at once rather than reserve space it cannot draw in.

#ifndef WINDOWBANNER_CPIXMAN_H
#define WINDOWBANNER_CPIXMAN_H

#include <pixman-1/pixman.h>

/// Loads pixman if no call has yet; NULL when it is usable, else why not (dlerror's message, or
/// the function libpixman-1.so.0 lacks).
const char *cpixman_unavailable(void);

#endif
