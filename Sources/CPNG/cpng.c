// See include/cpng.h. The box filter matches BannerCore's IconBitmap.scaled(toSquare:): each
// square pixel is the average of the image pixels it covers, weighted by how much of each it
// covers, on premultiplied channels; it is applied as a scatter (each image pixel adds itself
// to the one or two cells it overlaps on each axis), which works in any row order, so
// interlaced (Adam7) files are filtered pass by pass with no full-size buffer either.

#include "cpng.h"

#include <errno.h>
#include <math.h>
#include <png.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/// Where each source index lands on one axis: source `s` adds `weight[first[s] + k]` of
/// itself to cell `cell[first[s] + k]`, k < count[s].
typedef struct axis {
    uint32_t *first, *count, *cell;
    float *weight;
} axis;

typedef struct target {
    uint32_t side, width, height, left, top;
    axis across, down;
    /// height × width × 4 premultiplied channel sums (A, R, G, B).
    float *sums;
    /// width × 4: the row being filtered across.
    float *row;
} target;

typedef struct decoder {
    wb_png_request *request;
    target targets[WB_PNG_MAXIMUM_TARGETS];
    int interlaced;
    int finished;
    int failed;
    /// Bytes of the file fed to libpng so far.
    uint64_t bytes_read;
} decoder;

static void axis_free(axis *a) {
    free(a->first);
    free(a->count);
    free(a->cell);
    free(a->weight);
}

/// The weights of `n` source cells shrunk or stretched to `m`, as scatter lists.
static int axis_build(axis *a, uint32_t n, uint32_t m) {
    double ratio = (double)n / (double)m;
    // A source cell overlaps at most ceil(1 / ratio) + 1 destination cells.
    size_t per_source = (size_t)ceil(1.0 / ratio) + 1;
    a->first = calloc(n, sizeof *a->first);
    a->count = calloc(n, sizeof *a->count);
    a->cell = calloc((size_t)n * per_source, sizeof *a->cell);
    a->weight = calloc((size_t)n * per_source, sizeof *a->weight);
    if (!a->first || !a->count || !a->cell || !a->weight) return -1;
    for (uint32_t s = 0; s < n; s++) a->first[s] = (uint32_t)(s * per_source);
    for (uint32_t c = 0; c < m; c++) {
        double start = c * ratio, end = start + ratio;
        for (uint32_t s = (uint32_t)start; s < end && s < n; s++) {
            double covered = fmin(end, s + 1.0) - fmax(start, (double)s);
            if (covered <= 1e-9 || a->count[s] >= per_source) continue;
            uint32_t slot = a->first[s] + a->count[s]++;
            a->cell[slot] = c;
            a->weight[slot] = (float)(covered / ratio);
        }
    }
    return 0;
}

static void fail(decoder *d, png_structp png, const char *message) {
    snprintf(d->request->message, sizeof d->request->message, "%s", message);
    d->failed = 1;
    png_longjmp(png, 1);
}

static void on_error(png_structp png, png_const_charp message) {
    decoder *d = png_get_error_ptr(png);
    // A reason of our own (a limit) is already set; libpng's explains a damaged file.
    if (!d->failed) snprintf(d->request->message, sizeof d->request->message, "damaged PNG data (libpng: %s)", message);
    d->failed = 1;
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

static void on_header(png_structp png, png_infop info) {
    decoder *d = png_get_progressive_ptr(png);
    wb_png_request *r = d->request;
    uint32_t width = png_get_image_width(png, info), height = png_get_image_height(png, info);
    r->width = width;
    r->height = height;
    char message[sizeof r->message];
    if (width > r->maximum_side || height > r->maximum_side) {
        snprintf(message, sizeof message, "%ux%u px, wider or taller than the %u px icons are read up to",
                 width, height, r->maximum_side);
        fail(d, png, message);
    }
    if ((uint64_t)width * height > r->maximum_pixels) {
        snprintf(message, sizeof message, "%ux%u px, over the %llu pixels icons are read up to",
                 width, height, (unsigned long long)r->maximum_pixels);
        fail(d, png, message);
    }
    // Whatever the file's format (palette, grey, 16-bit, tRNS): 8-bit RGBA rows.
    png_set_expand(png);
    png_set_scale_16(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    d->interlaced = png_get_interlace_type(png, info) != PNG_INTERLACE_NONE;
    png_start_read_image(png);
    uint32_t longest = width > height ? width : height;
    for (int i = 0; i < r->target_count; i++) {
        target *t = &d->targets[i];
        t->side = r->sides[i];
        long fitted_width = lround((double)width * t->side / longest);
        long fitted_height = lround((double)height * t->side / longest);
        t->width = fitted_width < 1 ? 1 : (uint32_t)fitted_width;
        t->height = fitted_height < 1 ? 1 : (uint32_t)fitted_height;
        t->left = (t->side - t->width) / 2;
        t->top = (t->side - t->height) / 2;
        t->sums = calloc((size_t)t->width * t->height * 4, sizeof *t->sums);
        t->row = calloc((size_t)t->width * 4, sizeof *t->row);
        if (!t->sums || !t->row || axis_build(&t->across, width, t->width) || axis_build(&t->down, height, t->height)) {
            fail(d, png, "out of memory");
        }
    }
}

/// Adam7: where each pass's pixels sit in the image.
static const uint32_t pass_x0[7] = {0, 4, 0, 2, 0, 1, 0}, pass_dx[7] = {8, 8, 4, 4, 2, 2, 1};
static const uint32_t pass_y0[7] = {0, 0, 4, 0, 2, 0, 1}, pass_dy[7] = {8, 8, 8, 4, 4, 2, 2};

static void on_row(png_structp png, png_bytep row, png_uint_32 number, int pass) {
    decoder *d = png_get_progressive_ptr(png);
    if (!row) return;
    uint32_t x0 = 0, dx = 1, y = number;
    if (d->interlaced) {
        x0 = pass_x0[pass];
        dx = pass_dx[pass];
        y = pass_y0[pass] + number * pass_dy[pass];
    }
    uint32_t width = d->request->width;
    if (y >= d->request->height) return;
    for (int i = 0; i < d->request->target_count; i++) {
        target *t = &d->targets[i];
        memset(t->row, 0, (size_t)t->width * 4 * sizeof *t->row);
        int touched = 0;
        const png_byte *pixel = row;
        for (uint32_t x = x0; x < width; x += dx, pixel += 4) {
            uint32_t alpha = pixel[3];
            if (alpha == 0) continue;
            // Premultiplied in 8 bits first, rounded as IconBitmap does, so a uniform area
            // keeps its exact colour.
            float channels[4] = {
                (float)alpha,
                (float)((pixel[0] * alpha + 127) / 255),
                (float)((pixel[1] * alpha + 127) / 255),
                (float)((pixel[2] * alpha + 127) / 255),
            };
            uint32_t first = t->across.first[x];
            for (uint32_t k = 0; k < t->across.count[x]; k++) {
                float *cell = t->row + (size_t)t->across.cell[first + k] * 4;
                float weight = t->across.weight[first + k];
                for (int c = 0; c < 4; c++) cell[c] += channels[c] * weight;
            }
            touched = 1;
        }
        if (!touched) continue;
        uint32_t first = t->down.first[y];
        for (uint32_t k = 0; k < t->down.count[y]; k++) {
            float *sums = t->sums + (size_t)t->down.cell[first + k] * t->width * 4;
            float weight = t->down.weight[first + k];
            for (size_t c = 0; c < (size_t)t->width * 4; c++) sums[c] += t->row[c] * weight;
        }
    }
}

static void on_end(png_structp png, png_infop info) {
    (void)info;
    decoder *d = png_get_progressive_ptr(png);
    d->finished = 1;
}

static uint32_t channel(float value, uint32_t ceiling) {
    float rounded = roundf(value);
    if (rounded < 0) return 0;
    return rounded > ceiling ? ceiling : (uint32_t)rounded;
}

static void write_square(const target *t, uint32_t *pixels) {
    memset(pixels, 0, (size_t)t->side * t->side * sizeof *pixels);
    for (uint32_t row = 0; row < t->height; row++) {
        for (uint32_t column = 0; column < t->width; column++) {
            const float *sums = t->sums + ((size_t)row * t->width + column) * 4;
            uint32_t alpha = channel(sums[0], 255);
            // Premultiplied colour never exceeds its alpha; rounding must not make it.
            pixels[(size_t)(t->top + row) * t->side + t->left + column] =
                alpha << 24 | channel(sums[1], alpha) << 16 | channel(sums[2], alpha) << 8 | channel(sums[3], alpha);
        }
    }
}

/// Feeds the file to libpng; returns with d->finished or d->failed set. Kept apart from
/// wb_png_decode so that nothing it changes lives in a frame that setjmp returns into twice.
static void feed(decoder *d, png_structp png, png_infop info, png_bytep buffer, size_t size) {
    if (setjmp(png_jmpbuf(png))) return;
    while (!d->finished) {
        ssize_t count = read(d->request->fd, buffer, size);
        if (count < 0 && errno == EINTR) continue;
        if (count < 0) {
            snprintf(d->request->message, sizeof d->request->message, "%s", strerror(errno));
            d->failed = 1;
            return;
        }
        if (count == 0) {
            snprintf(d->request->message, sizeof d->request->message, "the file ends before the image does");
            d->failed = 1;
            return;
        }
        if (d->bytes_read == 0 && (count < 8 || png_sig_cmp(buffer, 0, 8) != 0)) {
            snprintf(d->request->message, sizeof d->request->message, "not a PNG file");
            d->failed = 1;
            return;
        }
        d->bytes_read += (uint64_t)count;
        if (d->bytes_read > d->request->maximum_bytes) {
            snprintf(d->request->message, sizeof d->request->message, "longer than the %llu bytes icons are read up to",
                     (unsigned long long)d->request->maximum_bytes);
            d->failed = 1;
            return;
        }
        png_process_data(png, info, buffer, (size_t)count);
    }
}

int wb_png_decode(wb_png_request *request) {
    request->width = 0;
    request->height = 0;
    request->message[0] = 0;
    if (request->target_count < 1 || request->target_count > WB_PNG_MAXIMUM_TARGETS) {
        snprintf(request->message, sizeof request->message, "bad request");
        return -1;
    }
    if (request->is_svg) return wb_svg_decode(request);
    decoder *d = calloc(1, sizeof *d);
    size_t size = 64 * 1024;
    png_bytep buffer = malloc(size);
    png_structp png = d ? png_create_read_struct(PNG_LIBPNG_VER_STRING, d, on_error, on_warning) : NULL;
    png_infop info = png ? png_create_info_struct(png) : NULL;
    int status = -1;
    if (!d || !buffer || !png || !info) {
        snprintf(request->message, sizeof request->message, "out of memory");
    } else {
        d->request = request;
        png_set_progressive_read_fn(png, d, on_header, on_row, on_end);
        feed(d, png, info, buffer, size);
        if (d->finished && !d->failed) {
            for (int i = 0; i < request->target_count; i++) write_square(&d->targets[i], request->pixels[i]);
            status = 0;
        } else if (!d->failed) {
            snprintf(request->message, sizeof request->message, "not a PNG file");
        }
    }
    if (png) png_destroy_read_struct(&png, info ? &info : NULL, NULL);
    if (d) {
        for (int i = 0; i < WB_PNG_MAXIMUM_TARGETS; i++) {
            free(d->targets[i].sums);
            free(d->targets[i].row);
            axis_free(&d->targets[i].across);
            axis_free(&d->targets[i].down);
        }
        free(d);
    }
    free(buffer);
    return status;
}

typedef struct background {
    wb_png_request *request;
    int done_fd;
} background;

static void *decode_thread(void *argument) {
    background job = *(background *)argument;
    free(argument);
    wb_png_decode(job.request);
    char byte = 1;
    while (write(job.done_fd, &byte, 1) < 0 && errno == EINTR) {}
    return NULL;
}

int wb_png_decode_in_background(wb_png_request *request, int done_fd) {
    background *job = malloc(sizeof *job);
    if (!job) return ENOMEM;
    job->request = request;
    job->done_fd = done_fd;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_t thread;
    int error = pthread_create(&thread, &attributes, decode_thread, job);
    pthread_attr_destroy(&attributes);
    if (error) free(job);
    return error;
}
