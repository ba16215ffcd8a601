// The C libraries of the Wayland backend: libwayland-client (the core protocol and its wire)
// and FreeType (glyph bitmaps). pixman is in CPixman, loaded on first use; the extension
// protocols' generated glue is in CWaylandProtocols.
#ifndef WINDOWBANNER_CWAYLAND_SHIM_H
#define WINDOWBANNER_CWAYLAND_SHIM_H

#include <wayland-client.h>
#include <ft2build.h>
#include FT_FREETYPE_H

#endif
