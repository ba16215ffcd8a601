/* self-raising-locker: what a screen locker looks like to other clients, at its most insistent:
 * an override-redirect window over the whole screen that raises itself whenever anything
 * obscures it (VisibilityNotify), as i3lock does. It prints "raise" each time it had to, and
 * stays until killed. The benchmark measures what a banner process spends while it is up.
 * Build:
 *     cc self-raising-locker.c $(pkg-config --cflags --libs x11)
 */
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <stdio.h>

int main(void) {
    Display *display = XOpenDisplay(NULL);
    if (!display) {
        fprintf(stderr, "self-raising-locker: cannot open the display\n");
        return 1;
    }
    int screen = DefaultScreen(display);
    XSetWindowAttributes attributes = {0};
    attributes.override_redirect = True;
    attributes.background_pixel = 0x101820;
    attributes.event_mask = VisibilityChangeMask;
    Window window = XCreateWindow(display, RootWindow(display, screen), 0, 0, (unsigned)DisplayWidth(display, screen),
                                  (unsigned)DisplayHeight(display, screen), 0, CopyFromParent, InputOutput, CopyFromParent,
                                  CWOverrideRedirect | CWBackPixel | CWEventMask, &attributes);
    XClassHint hint = {"bench-locker", "bench-locker"};
    XSetClassHint(display, window, &hint);
    XMapRaised(display, window);
    for (;;) {
        XEvent event;
        XNextEvent(display, &event);
        if (event.type == VisibilityNotify && event.xvisibility.state != VisibilityUnobscured) {
            XRaiseWindow(display, window);
            XFlush(display);
            printf("raise\n");
            fflush(stdout);
        }
    }
}
