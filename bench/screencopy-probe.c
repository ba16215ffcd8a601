/* screencopy-probe: the benchmark's eyes on a wlroots compositor (section 9, sway). Through
 * wlr-screencopy-unstable-v1's copy_with_damage it asks the compositor for every frame that
 * changed something on its first output, as the compositor composed it, and prints one line per
 * frame on stdout:
 *
 *     frame PRESENTED_NS RECEIVED_NS ROWS
 *
 * PRESENTED_NS is the compositor's own timestamp of that frame (the `ready` event: CLOCK_MONOTONIC
 * on Linux compositors), RECEIVED_NS the probe's CLOCK_MONOTONIC when it had the pixels, and ROWS
 * how many rows from the top of the output, without a gap, are mostly (≥ 3/4 of the row) the
 * colour RRGGBB given on the command line: 0 when nothing of that colour is at the top, the
 * banner's visible height while it slides. Only the top HEIGHT rows (second argument, default
 * 160) are copied. "ready" is printed once the first copy is asked for; the probe runs until it
 * is killed or the compositor goes. Because the copies are asked for one after another, a frame
 * the compositor composes between one copy's `ready` and the next request is seen with the next
 * damaged frame: the requests are sent at once, so that window is a round trip wide.
 * Start reading at main(). Build: wayland-scanner client-header and private-code on
 * wlr-screencopy-unstable-v1.xml, then cc screencopy-probe.c glue.c $(pkg-config --cflags --libs
 * wayland-client) (the Makefile's bench target does both). */
#define _GNU_SOURCE
#include "wlr-screencopy-unstable-v1-client-protocol.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>

static struct wl_display *display;
static struct wl_shm *shm;
static struct wl_output *output;
/* The output's current mode and scale: the region is given in logical pixels. */
static int32_t modeWidth, outputScale = 1;
static struct zwlr_screencopy_manager_v1 *manager;
static uint32_t managerVersion;
static uint32_t wanted; /* 0xRRGGBB */
static int32_t captureHeight = 160;

/* The one shm buffer every copy goes into, made from the first `buffer` event. */
static struct {
    struct wl_buffer *buffer;
    uint8_t *pixels;
    uint32_t format, width, height, stride;
} target;

static struct {
    struct zwlr_screencopy_frame_v1 *frame;
    int yInverted;
    int bufferOffered;
} current;

static void die(const char *message) {
    fprintf(stderr, "screencopy-probe: %s\n", message);
    exit(1);
}

static long long monotonicNanoseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

/* A pixel as 0xRRGGBB: the 32-bit formats wlroots offers for shm copies, little-endian words. */
static uint32_t rgbAt(const uint8_t *pixel) {
    uint32_t word = (uint32_t)pixel[0] | (uint32_t)pixel[1] << 8 | (uint32_t)pixel[2] << 16 | (uint32_t)pixel[3] << 24;
    switch (target.format) {
    case WL_SHM_FORMAT_ARGB8888:
    case WL_SHM_FORMAT_XRGB8888:
        return word & 0xffffff;
    default: /* ABGR8888 / XBGR8888 */
        return (word & 0xff) << 16 | (word & 0xff00) | (word >> 16 & 0xff);
    }
}

/* Within 3 of the wanted colour in every channel (a compositor may dither or round). */
static int isWanted(uint32_t rgb) {
    for (int shift = 0; shift <= 16; shift += 8) {
        int difference = (int)(rgb >> shift & 0xff) - (int)(wanted >> shift & 0xff);
        if (difference < -3 || difference > 3) return 0;
    }
    return 1;
}

static int wantedRowsFromTop(void) {
    int rows = 0;
    for (uint32_t y = 0; y < target.height; y++) {
        uint32_t row = current.yInverted ? target.height - 1 - y : y;
        const uint8_t *line = target.pixels + (size_t)row * target.stride;
        uint32_t matching = 0;
        for (uint32_t x = 0; x < target.width; x++) matching += isWanted(rgbAt(line + 4 * x));
        if (matching * 4 < target.width * 3) break;
        rows++;
    }
    return rows;
}

static void requestFrame(void);

static void makeBuffer(uint32_t format, uint32_t width, uint32_t height, uint32_t stride) {
    if (target.buffer) return;
    if (format != WL_SHM_FORMAT_ARGB8888 && format != WL_SHM_FORMAT_XRGB8888 && format != WL_SHM_FORMAT_ABGR8888 &&
        format != WL_SHM_FORMAT_XBGR8888)
        die("the compositor offers no 32-bit shm format");
    size_t size = (size_t)stride * height;
    int fd = memfd_create("screencopy-probe", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, (off_t)size) != 0) die("cannot make the shared-memory buffer");
    target.pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (target.pixels == MAP_FAILED) die("cannot map the shared-memory buffer");
    struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, (int32_t)size);
    target.buffer = wl_shm_pool_create_buffer(pool, 0, (int32_t)width, (int32_t)height, (int32_t)stride, format);
    wl_shm_pool_destroy(pool);
    close(fd);
    target.format = format;
    target.width = width;
    target.height = height;
    target.stride = stride;
}

static void onBuffer(void *data, struct zwlr_screencopy_frame_v1 *frame, uint32_t format, uint32_t width, uint32_t height,
                     uint32_t stride) {
    (void)data;
    makeBuffer(format, width, height, stride);
    current.bufferOffered = 1;
    /* Before version 3 there is no buffer_done: the shm offer is the only one. */
    if (managerVersion < 3) zwlr_screencopy_frame_v1_copy_with_damage(frame, target.buffer);
}

static void onFlags(void *data, struct zwlr_screencopy_frame_v1 *frame, uint32_t flags) {
    (void)data;
    (void)frame;
    current.yInverted = (flags & ZWLR_SCREENCOPY_FRAME_V1_FLAGS_Y_INVERT) != 0;
}

static void onReady(void *data, struct zwlr_screencopy_frame_v1 *frame, uint32_t secondsHigh, uint32_t secondsLow,
                    uint32_t nanoseconds) {
    (void)data;
    (void)frame;
    long long received = monotonicNanoseconds();
    long long presented = (long long)(((uint64_t)secondsHigh << 32) | secondsLow) * 1000000000LL + nanoseconds;
    int rows = wantedRowsFromTop();
    zwlr_screencopy_frame_v1_destroy(current.frame);
    requestFrame();
    wl_display_flush(display);
    printf("frame %lld %lld %d\n", presented, received, rows);
}

static void onFailed(void *data, struct zwlr_screencopy_frame_v1 *frame) {
    (void)data;
    (void)frame;
    die("the compositor failed a copy");
}

static void onDamage(void *data, struct zwlr_screencopy_frame_v1 *frame, uint32_t x, uint32_t y, uint32_t width, uint32_t height) {
    (void)data, (void)frame, (void)x, (void)y, (void)width, (void)height;
}

static void onDmabuf(void *data, struct zwlr_screencopy_frame_v1 *frame, uint32_t format, uint32_t width, uint32_t height) {
    (void)data, (void)frame, (void)format, (void)width, (void)height;
}

static void onBufferDone(void *data, struct zwlr_screencopy_frame_v1 *frame) {
    (void)data;
    if (!current.bufferOffered) die("the compositor offers no shm buffer");
    zwlr_screencopy_frame_v1_copy_with_damage(frame, target.buffer);
}

static const struct zwlr_screencopy_frame_v1_listener frameListener = {
    .buffer = onBuffer, .flags = onFlags, .ready = onReady, .failed = onFailed,
    .damage = onDamage, .linux_dmabuf = onDmabuf, .buffer_done = onBufferDone,
};

static void requestFrame(void) {
    current.bufferOffered = 0;
    current.yInverted = 0;
    current.frame = zwlr_screencopy_manager_v1_capture_output_region(manager, 0, output, 0, 0, modeWidth / outputScale, captureHeight);
    zwlr_screencopy_frame_v1_add_listener(current.frame, &frameListener, NULL);
}

static void onMode(void *data, struct wl_output *wlOutput, uint32_t flags, int32_t width, int32_t height, int32_t refresh) {
    (void)data, (void)wlOutput, (void)height, (void)refresh;
    if (flags & WL_OUTPUT_MODE_CURRENT) modeWidth = width;
}

static void onScale(void *data, struct wl_output *wlOutput, int32_t factor) {
    (void)data, (void)wlOutput;
    outputScale = factor > 0 ? factor : 1;
}

static void onGeometry(void *data, struct wl_output *wlOutput, int32_t x, int32_t y, int32_t physicalWidth, int32_t physicalHeight,
                       int32_t subpixel, const char *make, const char *model, int32_t transform) {
    (void)data, (void)wlOutput, (void)x, (void)y, (void)physicalWidth, (void)physicalHeight, (void)subpixel, (void)make, (void)model,
        (void)transform;
}

static void onOutputDone(void *data, struct wl_output *wlOutput) { (void)data, (void)wlOutput; }

static const struct wl_output_listener outputListener = {.geometry = onGeometry, .mode = onMode, .done = onOutputDone, .scale = onScale};

static void onGlobal(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    (void)data;
    if (strcmp(interface, wl_shm_interface.name) == 0) {
        shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
    } else if (strcmp(interface, wl_output_interface.name) == 0 && !output) {
        output = wl_registry_bind(registry, name, &wl_output_interface, version < 2 ? version : 2);
        wl_output_add_listener(output, &outputListener, NULL);
    } else if (strcmp(interface, zwlr_screencopy_manager_v1_interface.name) == 0) {
        managerVersion = version < 3 ? version : 3;
        manager = wl_registry_bind(registry, name, &zwlr_screencopy_manager_v1_interface, managerVersion);
    }
}

static void onGlobalRemove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data, (void)registry, (void)name;
}

static const struct wl_registry_listener registryListener = {.global = onGlobal, .global_remove = onGlobalRemove};

int main(int argc, char **argv) {
    if (argc < 2 || argc > 3) die("usage: screencopy-probe RRGGBB [HEIGHT]");
    char *end;
    wanted = (uint32_t)strtoul(argv[1][0] == '#' ? argv[1] + 1 : argv[1], &end, 16);
    if (*end != '\0') die("the colour is RRGGBB");
    if (argc == 3 && (captureHeight = atoi(argv[2])) <= 0) die("the height is a positive number of rows");
    setvbuf(stdout, NULL, _IOLBF, 0);
    display = wl_display_connect(NULL);
    if (!display) die("cannot connect to $WAYLAND_DISPLAY");
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registryListener, NULL);
    wl_display_roundtrip(display);
    wl_display_roundtrip(display); /* the output's mode and scale */
    if (!shm || !output || modeWidth <= 0) die("the compositor has no wl_shm or no output");
    if (!manager || managerVersion < 2) die("the compositor has no zwlr_screencopy_manager_v1 with copy_with_damage (version 2)");
    requestFrame();
    wl_display_roundtrip(display);
    printf("ready\n");
    while (wl_display_dispatch(display) != -1) {}
    die("the compositor went away");
}
