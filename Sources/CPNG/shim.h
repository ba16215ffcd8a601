// libpng's simplified API (png_image), the only part of libpng WindowBanner uses: it reads a
// whole PNG into 8-bit RGBA without the setjmp/longjmp error handling of the classic API,
// which Swift cannot take part in. Its format and version constants are macros, bridged
// here as static inline functions named after them.
#ifndef WINDOWBANNER_CPNG_SHIM_H
#define WINDOWBANNER_CPNG_SHIM_H

#include <png.h>

static inline png_uint_32 wb_PNG_IMAGE_VERSION(void) { return PNG_IMAGE_VERSION; }
static inline png_uint_32 wb_PNG_FORMAT_RGBA(void) { return PNG_FORMAT_RGBA; }

/// The reason libpng gives when a png_image call fails (its `message` field).
static inline const char *wb_png_image_message(const png_image *image) { return image->message; }

#endif
