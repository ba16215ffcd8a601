// The X-Resource extension, for tests that count what a client holds on the server.
#include <X11/Xlib.h>
#include <X11/extensions/XRes.h>
