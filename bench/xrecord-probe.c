/* xrecord-probe: the benchmark's eyes on the X server. With the RECORD extension it hears
 * every client's window, property and drawing requests and the Map/Unmap/Destroy notifications
 * the server delivers, each stamped with the server's own clock (XRecordFromServerTime, in
 * milliseconds), and prints one line per element on stdout:
 *
 *     SERVER_MS KIND CLIENT ARGS…      CLIENT = the sender's (or recipient's) resource base
 *
 * KIND is start/gone (a client connected or went away), create W PARENT OVERRIDE W H,
 * map/unmap/destroy/configure/attrs W, prop W ATOM TEXT-OR-NUMBER, pixmap P, picture PICT
 * DRAWABLE, draw DRAWABLE NAME (core, MIT-SHM and RENDER drawing, RENDER naming the
 * destination picture), shape W, mapnotify/unmapnotify W, req MAJOR MINOR (anything else), and
 * mark N for the probe's own marker. Lines on stdin steer it: "mark N" sets a property on the
 * root (whose recorded request then shows the driver where its own clock stands against the
 * server's) and answers "marked N BEFORE_NS AFTER_NS" in CLOCK_MONOTONIC; "mute" and "unmute"
 * leave out and bring back everything but window lifecycles, names and markers (long soak
 * loops); "quit" or end of input ends it.
 * Start reading at main(). Build: cc xrecord-probe.c $(pkg-config --cflags --libs x11 xtst). */
#include <X11/Xlib.h>
#include <X11/Xatom.h>
#include <X11/Xproto.h>
#include <X11/extensions/record.h>
#include <X11/extensions/render.h>
#include <X11/extensions/shapeproto.h>
#include <X11/extensions/shmproto.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static Display *control; /* makes the markers and owns the context */
static Display *data;    /* carries the recorded stream; RECORD never records it */
static Atom markAtom;
static int renderMajor = -1, shapeMajor = -1, shmMajor = -1;
static int muted;
/* The control connection's resource base, learnt from its first marker: its own requests (the
 * round trips below) are left out of the stream. */
static unsigned long selfBase = ~0UL;

static void die(const char *message) {
    fprintf(stderr, "xrecord-probe: %s\n", message);
    exit(1);
}

static long long monotonicNanoseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

/* A request's bytes; BIG-REQUESTS (length field 0) moves everything after the header by 4. */
struct request {
    const unsigned char *bytes;
    size_t size;
    int big;
};

static uint32_t u32(const struct request *r, size_t offset) {
    if (offset >= 4 && r->big) offset += 4;
    if (offset + 4 > r->size) return 0;
    uint32_t value;
    memcpy(&value, r->bytes + offset, 4);
    return value;
}

static uint16_t u16(const struct request *r, size_t offset) {
    if (offset >= 4 && r->big) offset += 4;
    if (offset + 2 > r->size) return 0;
    uint16_t value;
    memcpy(&value, r->bytes + offset, 2);
    return value;
}

static uint8_t u8(const struct request *r, size_t offset) {
    if (offset >= 4 && r->big) offset += 4;
    return offset < r->size ? r->bytes[offset] : 0;
}

/* Property text: printable ASCII kept, anything else (NULs between WM_CLASS's two names,
 * spaces) as '_', at most 60 bytes, so a line always splits on spaces. */
static void printText(const struct request *r, size_t offset, uint32_t count) {
    if (offset >= 4 && r->big) offset += 4;
    for (uint32_t i = 0; i < count && i < 60 && offset + i < r->size; i++) {
        unsigned char c = r->bytes[offset + i];
        putchar(c > 32 && c < 127 ? c : '_');
    }
}

static void coreRequest(unsigned long time, unsigned long client, const struct request *r) {
    uint8_t major = u8(r, 0);
    switch (major) {
    case X_CreateWindow: {
        uint32_t mask = u32(r, 28);
        int override = 0;
        if (mask & CWOverrideRedirect) {
            int index = __builtin_popcount(mask & (CWOverrideRedirect - 1));
            override = u32(r, 32 + 4 * (size_t)index) != 0;
        }
        printf("%lu create %lx %x %x %d %u %u\n", time, client, u32(r, 4), u32(r, 8), override, u16(r, 16), u16(r, 18));
        break;
    }
    case X_MapWindow: printf("%lu map %lx %x\n", time, client, u32(r, 4)); break;
    case X_MapSubwindows: printf("%lu mapsubwindows %lx %x\n", time, client, u32(r, 4)); break;
    case X_UnmapWindow: printf("%lu unmap %lx %x\n", time, client, u32(r, 4)); break;
    case X_DestroyWindow: printf("%lu destroy %lx %x\n", time, client, u32(r, 4)); break;
    case X_ConfigureWindow: {
        /* The mask, then its values in order: x y width height border sibling stack-mode. */
        uint16_t mask = u16(r, 8);
        printf("%lu configure %lx %x %x", time, client, u32(r, 4), mask);
        for (int bit = 0, index = 0; bit < 7; bit++)
            if (mask & (1 << bit)) printf(" %d", (int32_t)u32(r, 12 + 4 * (size_t)index++));
        putchar('\n');
        break;
    }
    case X_ChangeWindowAttributes: {
        /* The background pixmap when the request sets one (CWBackPixmap is the first value). */
        uint32_t mask = u32(r, 8);
        printf("%lu attrs %lx %x %x\n", time, client, u32(r, 4), mask & CWBackPixmap ? u32(r, 12) : 0);
        break;
    }
    case X_CreatePixmap: printf("%lu pixmap %lx %x\n", time, client, u32(r, 4)); break;
    case X_ChangeProperty: {
        uint32_t window = u32(r, 4), property = u32(r, 8), count = u32(r, 20);
        uint8_t format = u8(r, 16);
        if (property == markAtom) {
            selfBase = client;
            printf("%lu mark %lx %u\n", time, client, u32(r, 24));
            break;
        }
        printf("%lu prop %lx %x %u ", time, client, window, property);
        if (format == 8) printText(r, 24, count);
        else if (format == 32 && count > 0) printf("%u", u32(r, 24));
        else putchar('-');
        putchar('\n');
        break;
    }
    case X_ClearArea: printf("%lu draw %lx %x cleararea\n", time, client, u32(r, 4)); break;
    case X_CopyArea: printf("%lu draw %lx %x copyarea\n", time, client, u32(r, 8)); break;
    case X_CopyPlane: printf("%lu draw %lx %x copyplane\n", time, client, u32(r, 8)); break;
    case X_PolyPoint: case X_PolyLine: case X_PolySegment: case X_PolyRectangle: case X_PolyArc:
    case X_FillPoly: case X_PolyFillRectangle: case X_PolyFillArc: case X_PutImage:
    case X_PolyText8: case X_PolyText16: case X_ImageText8: case X_ImageText16:
        printf("%lu draw %lx %x core%u\n", time, client, u32(r, 4), major);
        break;
    default: printf("%lu req %lx %u 0\n", time, client, major);
    }
}

static void extensionRequest(unsigned long time, unsigned long client, const struct request *r) {
    uint8_t major = u8(r, 0), minor = u8(r, 1);
    if (major == renderMajor) {
        switch (minor) {
        case X_RenderCreatePicture: printf("%lu picture %lx %x %x\n", time, client, u32(r, 4), u32(r, 8)); return;
        case X_RenderComposite: printf("%lu draw %lx %x composite\n", time, client, u32(r, 16)); return;
        case X_RenderFillRectangles: printf("%lu draw %lx %x fillrectangles\n", time, client, u32(r, 8)); return;
        case X_RenderCompositeGlyphs8: case X_RenderCompositeGlyphs16: case X_RenderCompositeGlyphs32:
            printf("%lu draw %lx %x glyphs\n", time, client, u32(r, 12));
            return;
        case X_RenderTrapezoids: case X_RenderTriangles: case X_RenderTriStrip: case X_RenderTriFan:
            printf("%lu draw %lx %x trapezoids\n", time, client, u32(r, 12));
            return;
        case X_RenderAddTraps: printf("%lu draw %lx %x addtraps\n", time, client, u32(r, 4)); return;
        }
    } else if (major == shmMajor && minor == X_ShmPutImage) {
        printf("%lu draw %lx %x shmputimage\n", time, client, u32(r, 4));
        return;
    } else if (major == shapeMajor && minor >= X_ShapeRectangles && minor <= X_ShapeOffset) {
        printf("%lu shape %lx %x\n", time, client, u32(r, 8));
        return;
    }
    printf("%lu req %lx %u %u\n", time, client, major, minor);
}

static void deliveredEvent(unsigned long time, unsigned long client, const unsigned char *event) {
    uint32_t window;
    memcpy(&window, event + 8, 4);
    switch (event[0] & 0x7f) {
    case MapNotify: printf("%lu mapnotify %lx %x\n", time, client, window); break;
    case UnmapNotify: printf("%lu unmapnotify %lx %x\n", time, client, window); break;
    default: break;
    }
}

/* Muted, only what keeps the driver's picture of the windows whole passes: creations,
 * destructions, names and classes, maps, connections, and markers. */
static int essential(const struct request *r) {
    uint8_t major = u8(r, 0);
    if (major == X_CreateWindow || major == X_DestroyWindow) return 1;
    if (major != X_ChangeProperty) return 0;
    uint32_t property = u32(r, 8);
    return property == markAtom || property == XA_WM_NAME || property == XA_WM_CLASS;
}

static void intercepted(XPointer closure, XRecordInterceptData *element) {
    (void)closure;
    unsigned long time = element->server_time, client = element->id_base;
    if (element->category == XRecordFromClient && element->data_len >= 1) {
        struct request r = { element->data, (size_t)element->data_len * 4, 0 };
        r.big = u16(&r, 2) == 0;
        int marker = u8(&r, 0) == X_ChangeProperty && u32(&r, 8) == markAtom;
        /* The probe's own requests (its round trips) never pass, but for its markers. */
        if (marker || (client != selfBase && (!muted || essential(&r)))) {
            if (u8(&r, 0) < 128) coreRequest(time, client, &r);
            else extensionRequest(time, client, &r);
        }
    } else {
        switch (element->category) {
        case XRecordFromServer:
            if (element->data_len >= 8) deliveredEvent(time, client, element->data);
            break;
        case XRecordClientStarted: printf("%lu start %lx\n", time, client); break;
        case XRecordClientDied: printf("%lu gone %lx\n", time, client); break;
        default: break;
        }
    }
    XRecordFreeData(element);
}

/* One command from the driver; 0 when it is time to stop. */
static int command(const char *line) {
    unsigned long number;
    if (sscanf(line, "mark %lu", &number) == 1) {
        long value = (long)number;
        long long before = monotonicNanoseconds();
        XChangeProperty(control, DefaultRootWindow(control), markAtom, XA_CARDINAL, 32, PropModeReplace,
                        (unsigned char *)&value, 1);
        XSync(control, False);
        long long after = monotonicNanoseconds();
        printf("0 marked 0 %lu %lld %lld\n", number, before, after);
    } else if (strncmp(line, "mute", 4) == 0) {
        muted = 1;
    } else if (strncmp(line, "unmute", 6) == 0) {
        muted = 0;
    } else if (strncmp(line, "quit", 4) == 0) {
        return 0;
    }
    return 1;
}

static int extensionMajor(const char *name) {
    int major, event, error;
    return XQueryExtension(control, name, &major, &event, &error) ? major : -1;
}

int main(void) {
    control = XOpenDisplay(NULL);
    data = XOpenDisplay(NULL);
    if (!control || !data) die("cannot open the display");
    int major, minor;
    if (!XRecordQueryVersion(control, &major, &minor)) die("the X server has no RECORD extension");
    renderMajor = extensionMajor("RENDER");
    shapeMajor = extensionMajor("SHAPE");
    shmMajor = extensionMajor("MIT-SHM");
    markAtom = XInternAtom(control, "_WINDOW_BANNER_BENCH_MARK", False);
    /* Someone must select SubstructureNotify on the root for the server to send MapNotify of
     * override-redirect windows: this connection does, and RECORD sees what it is sent. */
    XSelectInput(control, DefaultRootWindow(control), SubstructureNotifyMask);

    XRecordRange *range = XRecordAllocRange();
    if (!range) die("out of memory");
    range->core_requests.first = 1;
    range->core_requests.last = 127;
    range->ext_requests.ext_major.first = 128;
    range->ext_requests.ext_major.last = 255;
    range->ext_requests.ext_minor.first = 0;
    range->ext_requests.ext_minor.last = 255;
    range->delivered_events.first = UnmapNotify;
    range->delivered_events.last = MapNotify;
    range->client_started = True;
    range->client_died = True;
    XRecordClientSpec clients = XRecordAllClients;
    XRecordContext context = XRecordCreateContext(control, XRecordFromServerTime, &clients, 1, &range, 1);
    if (!context) die("cannot create a RECORD context");
    XSync(control, False);
    if (!XRecordEnableContextAsync(data, context, intercepted, NULL)) die("cannot enable the RECORD context");

    setvbuf(stdout, NULL, _IOFBF, 1 << 16);
    /* The root, and the atoms the driver waits on, by number (WM_NAME and WM_CLASS are fixed). */
    printf("0 root 0 %lx\n", DefaultRootWindow(control));
    const char *names[] = { "_NET_WORKAREA", "_NET_WM_PID" };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        printf("0 atom 0 %s %lu\n", names[i], XInternAtom(control, names[i], False));
    printf("0 ready 0\n");
    fflush(stdout);

    char line[256];
    size_t filled = 0;
    for (;;) {
        struct pollfd watched[2] = {
            { .fd = ConnectionNumber(data), .events = POLLIN },
            { .fd = STDIN_FILENO, .events = POLLIN },
        };
        /* RECORD keeps what it recorded in a server-side buffer until the server next flushes
         * output to some client: a round trip every few milliseconds makes that happen, so a
         * draw that triggers no event still reaches the driver promptly. Its timestamps are
         * the server's either way. */
        int ready = poll(watched, 2, 4);
        if (ready < 0) continue;
        if (ready == 0) {
            XSync(control, False);
            continue;
        }
        if (watched[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            XRecordProcessReplies(data);
            if (watched[0].revents & (POLLHUP | POLLERR)) break;
        }
        /* Drain the control connection's own events, which nobody reads. */
        while (XPending(control)) {
            XEvent ignored;
            XNextEvent(control, &ignored);
        }
        if (watched[1].revents & (POLLIN | POLLHUP)) {
            ssize_t count = read(STDIN_FILENO, line + filled, sizeof line - 1 - filled);
            if (count <= 0) break;
            filled += (size_t)count;
            char *end;
            int running = 1;
            while (running && (end = memchr(line, '\n', filled))) {
                *end = '\0';
                running = command(line);
                filled -= (size_t)(end + 1 - line);
                memmove(line, end + 1, filled);
            }
            if (filled == sizeof line - 1) filled = 0;
            if (!running) break;
        }
        fflush(stdout);
    }
    fflush(stdout);
    XRecordDisableContext(control, context);
    XRecordFreeContext(control, context);
    return 0;
}
