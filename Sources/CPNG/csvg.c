// SVG icons (a theme's scalable/ directory) drawn by librsvg, which every distribution ships
// for GTK. librsvg draws through cairo; both are loaded with dlopen on the first SVG icon, so
// the text path and a process that never shows an SVG icon map neither. Start reading at
// wb_svg_decode.

#include "cpng.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// The few types of librsvg, GLib and cairo used here, as their stable ABIs define them.
typedef struct { unsigned int domain; int code; char *message; } wb_gerror;
typedef struct { double x, y, width, height; } wb_rsvg_rectangle;
enum { WB_CAIRO_FORMAT_ARGB32 = 0 };

static struct {
    void *(*new_from_data)(const unsigned char *, size_t, wb_gerror **);
    int (*render_document)(void *, void *, const wb_rsvg_rectangle *, wb_gerror **);
    int (*intrinsic_size)(void *, double *, double *);
    void (*object_unref)(void *);
    void (*error_free)(wb_gerror *);
    void *(*surface_create_for_data)(unsigned char *, int, int, int, int);
    void (*surface_flush)(void *);
    void (*surface_destroy)(void *);
    void *(*create)(void *);
    void (*destroy)(void *);
} rsvg;

static int loaded;
static const char *failure;
static pthread_once_t once = PTHREAD_ONCE_INIT;

#define LOAD(field, name)                                    \
    *(void **)(&rsvg.field) = dlsym(library, name);          \
    if (!rsvg.field) {                                       \
        failure = "librsvg lacks " name;                     \
        return;                                              \
    }

static void load(void) {
    void *library = dlopen("librsvg-2.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        failure = "SVG icons need librsvg (librsvg-2.so.2), which is not installed";
        return;
    }
    // GLib's and cairo's functions come through librsvg's own dependencies.
    LOAD(new_from_data, "rsvg_handle_new_from_data")
    LOAD(render_document, "rsvg_handle_render_document")
    LOAD(intrinsic_size, "rsvg_handle_get_intrinsic_size_in_pixels")
    LOAD(object_unref, "g_object_unref")
    LOAD(error_free, "g_error_free")
    LOAD(surface_create_for_data, "cairo_image_surface_create_for_data")
    LOAD(surface_flush, "cairo_surface_flush")
    LOAD(surface_destroy, "cairo_surface_destroy")
    LOAD(create, "cairo_create")
    LOAD(destroy, "cairo_destroy")
    loaded = 1;
}

/// The rest of `fd`, at most `maximum` bytes; NULL (with `message` set) when longer or unreadable.
static unsigned char *read_all(int fd, uint64_t maximum, size_t *length, char *message, size_t message_size) {
    size_t capacity = 64 * 1024, used = 0;
    unsigned char *bytes = malloc(capacity);
    if (!bytes) {
        snprintf(message, message_size, "out of memory");
        return NULL;
    }
    for (;;) {
        if (used == capacity) {
            // One byte past the limit is room enough to tell a file that is too long.
            size_t next = capacity * 2 > maximum + 1 ? (size_t)maximum + 1 : capacity * 2;
            unsigned char *grown = next > capacity ? realloc(bytes, next) : NULL;
            if (!grown) {
                snprintf(message, message_size, next > capacity ? "out of memory" : "larger than %llu bytes", (unsigned long long)maximum);
                free(bytes);
                return NULL;
            }
            bytes = grown;
            capacity = next;
        }
        ssize_t count = read(fd, bytes + used, capacity - used);
        if (count < 0 && errno == EINTR) continue;
        if (count < 0) {
            snprintf(message, message_size, "%s", strerror(errno));
            free(bytes);
            return NULL;
        }
        if (count == 0) break;
        used += (size_t)count;
        if (used > maximum) {
            snprintf(message, message_size, "larger than %llu bytes", (unsigned long long)maximum);
            free(bytes);
            return NULL;
        }
    }
    *length = used;
    return bytes;
}

int wb_svg_decode(wb_png_request *request) {
    pthread_once(&once, load);
    if (!loaded) {
        snprintf(request->message, sizeof request->message, "%s", failure);
        return -1;
    }
    size_t length = 0;
    unsigned char *bytes = read_all(request->fd, request->maximum_bytes, &length, request->message, sizeof request->message);
    if (!bytes) return -1;
    wb_gerror *error = NULL;
    void *handle = rsvg.new_from_data(bytes, length, &error);
    free(bytes);
    if (!handle) {
        snprintf(request->message, sizeof request->message, "not an SVG document (%s)", error && error->message ? error->message : "librsvg refused it");
        if (error) rsvg.error_free(error);
        return -1;
    }
    double width = 0, height = 0;
    if (rsvg.intrinsic_size(handle, &width, &height) && width >= 1 && height >= 1 && width <= 1e6 && height <= 1e6) {
        request->width = (uint32_t)width;
        request->height = (uint32_t)height;
    } else {
        // No size of its own (only a viewBox, or percentages): drawn to fill the square.
        request->width = request->height = 1;
    }
    int status = 0;
    for (int i = 0; i < request->target_count && status == 0; i++) {
        int side = (int)request->sides[i];
        memset(request->pixels[i], 0, (size_t)side * (size_t)side * 4);
        // cairo's ARGB32 is premultiplied native-endian 0xAARRGGBB, the squares' own format.
        void *surface = rsvg.surface_create_for_data((unsigned char *)request->pixels[i], WB_CAIRO_FORMAT_ARGB32, side, side, side * 4);
        void *cairo = rsvg.create(surface);
        wb_rsvg_rectangle viewport = {0, 0, side, side};
        if (!rsvg.render_document(handle, cairo, &viewport, &error)) {
            snprintf(request->message, sizeof request->message, "librsvg cannot draw it (%s)", error && error->message ? error->message : "no reason given");
            if (error) rsvg.error_free(error);
            error = NULL;
            status = -1;
        }
        rsvg.destroy(cairo);
        rsvg.surface_flush(surface);
        rsvg.surface_destroy(surface);
    }
    rsvg.object_unref(handle);
    return status;
}
