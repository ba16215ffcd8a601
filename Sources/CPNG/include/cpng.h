// PNG icons decoded straight to the size they are drawn at. libpng's progressive reader is fed
// the file a block at a time and hands over one row at a time; each row is box-filtered into
// the small squares asked for as it arrives, so neither the file nor the full-size image is
// ever held: a 4096x4096 icon costs a few rows of memory, not 64 MiB. libpng reports errors
// with longjmp, which must not cross Swift frames: everything between the file and the
// finished squares happens in C (cpng.c). Start reading at wb_png_decode.
#ifndef WINDOWBANNER_CPNG_H
#define WINDOWBANNER_CPNG_H

#include <stddef.h>
#include <stdint.h>

/// How many squares one decode can fill (an icon's regular and compact sizes).
#define WB_PNG_MAXIMUM_TARGETS 2

/// One decode: what to read, the limits, the squares to fill, and what came out.
typedef struct wb_png_request {
    /// The open file, read from its current offset to its end; not closed here.
    int fd;
    /// Files that turn out longer than this are refused (the caller checks the size first;
    /// this catches a file that grows while it is read).
    uint64_t maximum_bytes;
    /// Images with more pixels than this (width × height) are refused before any is decoded.
    uint64_t maximum_pixels;
    /// Images wider or taller than this are refused before any pixel is decoded.
    uint32_t maximum_side;
    /// How many of `sides` / `pixels` are used, 1 … WB_PNG_MAXIMUM_TARGETS.
    int target_count;
    /// The squares the image is fitted into, in pixels (1 … 4096).
    uint32_t sides[WB_PNG_MAXIMUM_TARGETS];
    /// Filled with side × side premultiplied 0xAARRGGBB pixels each, rows top to bottom: the
    /// image scaled to keep its proportions and centred, the rest transparent. Allocated by
    /// the caller.
    uint32_t *pixels[WB_PNG_MAXIMUM_TARGETS];
    /// Set: the file is an SVG document, drawn by librsvg (csvg.c) instead of decoded by libpng.
    int is_svg;
    /// Out: the image's size as the file gives it (0 when not read that far).
    uint32_t width, height;
    /// Out: why the decode failed, one line.
    char message[200];
} wb_png_request;

/// Draws the SVG document of `request->fd` (at most `maximum_bytes`) into every square of
/// `request` with librsvg, loaded with dlopen on the first SVG (with cairo, which librsvg
/// draws through): nothing of either is mapped into a process that shows no SVG icon. The
/// document is fitted into each square keeping its proportions, centred. Returns 0 on success,
/// -1 with `request->message` set otherwise (librsvg missing, or its reason for refusing).
/// Called by wb_png_decode, which has reset `request`'s results and checked its targets.
int wb_svg_decode(wb_png_request *request);

/// Decodes `request->fd` into every square of `request` (an SVG with wb_svg_decode when
/// `request->is_svg` is set). Returns 0 on success, -1 with
/// `request->message` set otherwise. Safe to call from any thread (one request per call).
int wb_png_decode(wb_png_request *request);

/// Runs wb_png_decode(request) on a new detached thread, then writes one byte to `done_fd`
/// (a pipe the caller's event loop watches). `request` must stay untouched until then.
/// Returns 0, or the error number when no thread could be started.
int wb_png_decode_in_background(wb_png_request *request, int done_fd);

#endif
