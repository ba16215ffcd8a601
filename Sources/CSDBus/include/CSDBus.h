// CSDBus: sd-bus, libsystemd's D-Bus client, for the system bus (NetworkManager's connectivity,
// logind's sessions) and the accessibility bus. The declarations are libsystemd-dev's own
// <systemd/sd-bus.h>; the functions are defined in CSDBus.c, which loads libsystemd.so.0 with
// dlopen(3) on the first call. window-banner-full is also the X11 owner, which talks to no bus
// unless an accessibility bus is there: linking libsystemd would map it and the six libraries it
// needs (libgcrypt, libzstd, liblzma…) into every owner for nothing. Only sd-bus's non-variadic
// calls are used, which Swift calls directly.
//
// When libsystemd.so.0 cannot be loaded every call fails the way sd-bus fails, with a negative
// errno: -ELIBACC (or -ENOSYS when a function is missing from it), so each caller's own error
// path reports it.

#ifndef WINDOWBANNER_CSDBUS_H
#define WINDOWBANNER_CSDBUS_H

#include <systemd/sd-bus.h>

#endif
