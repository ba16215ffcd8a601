// pixman through dlopen: see CPixman.h for why. Each function of <pixman.h> that the package
// calls is defined here under its own name and forwards to libpixman-1's, found by dlsym when
// the first of them is called. Start reading at PIXMAN_FUNCTIONS.

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

// Hidden: the definitions below serve this binary's own calls only. Exported, they would stand
// in for pixman's own functions wherever the loader binds pixman_* by name (in cairo, say).
#pragma GCC visibility push(hidden)
#include "CPixman.h"

// Each pixman function called that returns a value: its result type, name, parameters, the
// arguments passed on, and what it returns when pixman is unavailable. The compiler checks
// every line against the header's declaration.
#define PIXMAN_FUNCTIONS(F)                                                                                    \
    F(pixman_image_t *, pixman_image_create_bits,                                                              \
      (pixman_format_code_t format, int width, int height, uint32_t *bits, int rowstride_bytes),               \
      (format, width, height, bits, rowstride_bytes), NULL)                                                    \
    F(pixman_image_t *, pixman_image_create_solid_fill, (const pixman_color_t *color), (color), NULL)          \
    F(pixman_bool_t, pixman_image_unref, (pixman_image_t *image), (image), 0)                                  \
    F(pixman_bool_t, pixman_image_set_transform, (pixman_image_t *image, const pixman_transform_t *transform), \
      (image, transform), 0)                                                                                   \
    F(pixman_bool_t, pixman_image_set_filter,                                                                  \
      (pixman_image_t *image, pixman_filter_t filter, const pixman_fixed_t *filter_params, int n_filter_params), \
      (image, filter, filter_params, n_filter_params), 0)                                                      \
    F(uint32_t *, pixman_image_get_data, (pixman_image_t *image), (image), NULL)                               \
    F(int, pixman_image_get_stride, (pixman_image_t *image), (image), 0)                                       \
    F(pixman_bool_t, pixman_image_fill_rectangles,                                                             \
      (pixman_op_t op, pixman_image_t *image, const pixman_color_t *color, int n_rects, const pixman_rectangle16_t *rects), \
      (op, image, color, n_rects, rects), 0)

static struct {
#define POINTER(type, name, parameters, arguments, failure_value) __typeof__(name) *name;
    PIXMAN_FUNCTIONS(POINTER)
#undef POINTER
    __typeof__(pixman_image_composite32) *pixman_image_composite32;
    __typeof__(pixman_transform_init_scale) *pixman_transform_init_scale;
} pixman;

static int available;
static const char *failure;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen("libpixman-1.so.0", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        // dlerror's text lives until the next dl call: keep a copy.
        static char message[256];
        const char *error = dlerror();
        snprintf(message, sizeof message, "%s", error != NULL ? error : "cannot load libpixman-1.so.0");
        failure = message;
        return;
    }
#define FIND(type, name, parameters, arguments, failure_value) \
    *(void **)(&pixman.name) = dlsym(library, #name);         \
    if (pixman.name == NULL) {                                \
        failure = "libpixman-1.so.0 lacks " #name;            \
        return;                                               \
    }
    PIXMAN_FUNCTIONS(FIND)
    FIND(void, pixman_image_composite32, , , )
    FIND(void, pixman_transform_init_scale, , , )
#undef FIND
    available = 1;
}

/// Loads pixman once per process, whichever thread calls first; true when it is usable.
static int loaded(void) {
    pthread_once(&once, load);
    return available;
}

const char *cpixman_unavailable(void) { return loaded() ? NULL : failure; }

#define FORWARD(type, name, parameters, arguments, failure_value) \
    type name parameters { return loaded() ? pixman.name arguments : failure_value; }
PIXMAN_FUNCTIONS(FORWARD)
#undef FORWARD

void pixman_image_composite32(pixman_op_t op, pixman_image_t *src, pixman_image_t *mask, pixman_image_t *dest,
                              int32_t src_x, int32_t src_y, int32_t mask_x, int32_t mask_y,
                              int32_t dest_x, int32_t dest_y, int32_t width, int32_t height) {
    if (loaded()) pixman.pixman_image_composite32(op, src, mask, dest, src_x, src_y, mask_x, mask_y, dest_x, dest_y, width, height);
}

void pixman_transform_init_scale(struct pixman_transform *t, pixman_fixed_t sx, pixman_fixed_t sy) {
    if (loaded()) pixman.pixman_transform_init_scale(t, sx, sy);
}

#pragma GCC visibility pop
