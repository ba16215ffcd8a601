/* floor-shaped: the least a command must do to put a banner on screen the way window-banner's
 * `show` does it, in C — so the cold start is measured against a floor that does the same work.
 * The command (this program run as `floor-shaped TITLE`) starts a process that stays (this
 * program again, as `floor-shaped --stay TITLE`, in a session of its own), and returns once that
 * process has drawn, as `show` returns once its owner has. The process orders the title with
 * FriBidi (the Unicode bidi algorithm), shapes each run with HarfBuzz (Arabic joins, Thai
 * clusters, ligatures) on the font fontconfig picks, and draws the glyphs HarfBuzz chose with
 * Xft in an override-redirect window, as WindowBanner's X11 backend does; then it stays until
 * killed. It links exactly what the benchmark pins (bench/window-banner-bench, Lineup):
 *     cc floor-shaped.c $(pkg-config --cflags --libs x11 xft xrender fontconfig freetype2 harfbuzz fribidi)
 * Usage: floor-shaped [TITLE] */
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xft/Xft.h>
#include <fontconfig/fontconfig.h>
#include <fribidi.h>
#include <hb.h>
#include <hb-ft.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void die(const char *message) {
    fprintf(stderr, "floor-shaped: %s\n", message);
    exit(1);
}

/* Decodes UTF-8 into code points; their count. A code point takes at least one byte, so at most
 * `capacity` - 1 bytes are read. */
static int decode(const char *text, FriBidiChar *out, int capacity) {
    size_t bytes = strlen(text);
    if (bytes > (size_t)capacity - 1) bytes = (size_t)capacity - 1;
    return (int)fribidi_charset_to_unicode(FRIBIDI_CHAR_SET_UTF8, text, (FriBidiStrIndex)bytes, out);
}

/* Draws `title`, ordered and shaped, centred in `width`, and flushes; the process stays. */
static void stay(const char *title, int ready) {
    Display *display = XOpenDisplay(NULL);
    if (!display) die("cannot open the display");
    int screen = DefaultScreen(display);
    Visual *visual = DefaultVisual(display, screen);
    Colormap colormap = DefaultColormap(display, screen);
    unsigned width = (unsigned)DisplayWidth(display, screen), height = 80;

    /* The same font and colours as WindowBanner's regular banner. */
    XftFont *font = XftFontOpenName(display, screen, "sans-serif:semibold:size=17");
    if (!font) die("cannot open the font");
    XftColor background, text;
    XftColorAllocName(display, visual, colormap, "#34C759", &background);
    XftColorAllocName(display, visual, colormap, "white", &text);

    /* The bidi algorithm: the visual order of the title's characters, and each one's level. */
    FriBidiChar logical[1024], visual_order[1024];
    FriBidiLevel levels[1024];
    int length = decode(title, logical, 1024);
    FriBidiParType direction = FRIBIDI_PAR_ON;
    memcpy(visual_order, logical, sizeof(FriBidiChar) * (size_t)length);
    if (!fribidi_log2vis(logical, length, &direction, visual_order, NULL, NULL, levels)) die("fribidi failed");

    /* One HarfBuzz run per paragraph direction (enough for a one-line title), on Xft's face. */
    FT_Face face = XftLockFace(font);
    hb_font_t *shaper = hb_ft_font_create_referenced(face);
    hb_buffer_t *buffer = hb_buffer_create();
    hb_buffer_add_utf32(buffer, logical, length, 0, length);
    hb_buffer_set_direction(buffer, FRIBIDI_IS_RTL(direction) ? HB_DIRECTION_RTL : HB_DIRECTION_LTR);
    hb_buffer_guess_segment_properties(buffer);
    hb_shape(shaper, buffer, NULL, 0);
    unsigned count = 0;
    hb_glyph_info_t *infos = hb_buffer_get_glyph_infos(buffer, &count);
    hb_glyph_position_t *positions = hb_buffer_get_glyph_positions(buffer, &count);
    XftGlyphSpec *specs = calloc(count ? count : 1, sizeof(XftGlyphSpec));
    int pen = 0;
    for (unsigned i = 0; i < count; i++) {
        specs[i].glyph = infos[i].codepoint;
        specs[i].x = (short)((pen + positions[i].x_offset) / 64);
        specs[i].y = (short)(-positions[i].y_offset / 64);
        pen += positions[i].x_advance;
    }
    XftUnlockFace(font);

    XSetWindowAttributes attributes = { .override_redirect = True, .background_pixel = background.pixel };
    Window window = XCreateWindow(display, RootWindow(display, screen), 0, 0, width, height, 0,
                                  CopyFromParent, InputOutput, CopyFromParent,
                                  CWOverrideRedirect | CWBackPixel, &attributes);
    XClassHint class = { "bench-floor-shaped", "BenchFloorShaped" };
    XSetClassHint(display, window, &class);
    XMapRaised(display, window);

    /* An override-redirect window is viewable as soon as the server has mapped it: draw now. */
    XftDraw *draw = XftDrawCreate(display, window, visual, colormap);
    int x = ((int)width - pen / 64) / 2;
    int baseline = 20 + (int)(height - 20 - (unsigned)(font->ascent + font->descent)) / 2 + font->ascent;
    for (unsigned i = 0; i < count; i++) {
        specs[i].x = (short)(specs[i].x + x);
        specs[i].y = (short)(specs[i].y + baseline);
    }
    XftDrawRect(draw, &background, 0, 0, width, height);
    XftDrawGlyphSpec(draw, &text, font, specs, (int)count);
    XSync(display, False);

    /* Drawn: the command that started this process may return. */
    if (write(ready, "ready\n", 6) != 6) die("cannot say it is ready");
    close(ready);
    signal(SIGTERM, SIG_DFL);
    for (;;) pause();
}

int main(int argc, char **argv) {
    if (argc > 2 && strcmp(argv[1], "--stay") == 0) stay(argv[2], 3);
    const char *title = argc > 1 ? argv[1] : "No Internet Connection";

    /* The command: start the process that stays, in a session of its own, with a pipe as its
     * descriptor 3; return once it says it has drawn. */
    int ends[2];
    if (pipe(ends) != 0) die("cannot make a pipe");
    pid_t child = fork();
    if (child < 0) die("cannot fork");
    if (child == 0) {
        setsid();
        close(ends[0]);
        if (ends[1] != 3) {
            if (dup2(ends[1], 3) < 0) _exit(1);
            close(ends[1]);
        }
        char *arguments[] = { argv[0], "--stay", (char *)title, NULL };
        execv("/proc/self/exe", arguments);
        _exit(127);
    }
    close(ends[1]);
    char answer[16];
    ssize_t got = read(ends[0], answer, sizeof answer);
    return got > 0 ? 0 : 1;
}
