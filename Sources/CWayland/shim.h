// The C libraries of the Wayland backend: libwayland-client (the core protocol and its wire),
// pixman (compositing into shared-memory buffers) and FreeType (glyph bitmaps). The extension
// protocols' generated glue is in CWaylandProtocols.
#ifndef WINDOWBANNER_CWAYLAND_SHIM_H
#define WINDOWBANNER_CWAYLAND_SHIM_H

#include <wayland-client.h>
#include <pixman.h>
#include <ft2build.h>
#include FT_FREETYPE_H

#endif
