/* floor: the least a fresh process must do to put a line of antialiased text on screen with
 * Xlib + Xft — open the display, open an Xft font, map an override-redirect window and draw one
 * line. The benchmark times it like every other tool; nothing can start faster and still draw
 * what a banner draws. It stays until killed. Build:
 *     cc floor.c $(pkg-config --cflags --libs x11 xft)
 * Usage: floor [TITLE] */
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xft/Xft.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void die(const char *message) {
    fprintf(stderr, "floor: %s\n", message);
    exit(1);
}

int main(int argc, char **argv) {
    const char *title = argc > 1 ? argv[1] : "No Internet Connection";
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

    XSetWindowAttributes attributes = { .override_redirect = True, .background_pixel = background.pixel };
    Window window = XCreateWindow(display, RootWindow(display, screen), 0, 0, width, height, 0,
                                  CopyFromParent, InputOutput, CopyFromParent,
                                  CWOverrideRedirect | CWBackPixel, &attributes);
    XClassHint class = { "bench-floor", "BenchFloor" };
    XSetClassHint(display, window, &class);
    XMapRaised(display, window);

    /* An override-redirect window is viewable as soon as the server has mapped it: draw now. */
    XftDraw *draw = XftDrawCreate(display, window, visual, colormap);
    XGlyphInfo extents;
    XftTextExtentsUtf8(display, font, (const FcChar8 *)title, (int)strlen(title), &extents);
    int x = ((int)width - extents.xOff) / 2;
    int baseline = 20 + (int)(height - 20 - (unsigned)(font->ascent + font->descent)) / 2 + font->ascent;
    XftDrawRect(draw, &background, 0, 0, width, height);
    XftDrawStringUtf8(draw, &text, font, x, baseline, (const FcChar8 *)title, (int)strlen(title));
    XFlush(display);

    signal(SIGTERM, SIG_DFL);
    for (;;) pause();
}
