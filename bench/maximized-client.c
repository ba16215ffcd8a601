/* maximized-client: an ordinary application window, maximized, that says on stdout each time the
 * window manager gives it a new size — what a browser or an IDE re-lays out and repaints for.
 * The benchmark counts those lines while a banner is shown and dismissed. It prints
 * "size WIDTH HEIGHT" once per new size (ConfigureNotify, real or synthetic, with a size other
 * than the last one) and stays until killed. Build:
 *     cc maximized-client.c $(pkg-config --cflags --libs x11)
 */
#include <X11/Xlib.h>
#include <X11/Xatom.h>
#include <X11/Xutil.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    Display *display = XOpenDisplay(NULL);
    if (!display) {
        fprintf(stderr, "maximized-client: cannot open the display\n");
        return 1;
    }
    Window root = DefaultRootWindow(display);
    Window window = XCreateSimpleWindow(display, root, 100, 100, 400, 300, 0, 0, 0x808080);
    XClassHint hint = {"bench-maximized", "bench-maximized"};
    XSetClassHint(display, window, &hint);
    Atom state = XInternAtom(display, "_NET_WM_STATE", False);
    long maximized[2] = {(long)XInternAtom(display, "_NET_WM_STATE_MAXIMIZED_VERT", False),
                         (long)XInternAtom(display, "_NET_WM_STATE_MAXIMIZED_HORZ", False)};
    XChangeProperty(display, window, state, XA_ATOM, 32, PropModeReplace, (unsigned char *)maximized, 2);
    XSelectInput(display, window, StructureNotifyMask);
    XMapWindow(display, window);
    int width = 0, height = 0;
    for (;;) {
        XEvent event;
        XNextEvent(display, &event);
        if (event.type == MapNotify) {
            /* Some WMs ignore the state set before mapping: ask again, the EWMH way. */
            XEvent message = {0};
            message.xclient.type = ClientMessage;
            message.xclient.window = window;
            message.xclient.message_type = state;
            message.xclient.format = 32;
            message.xclient.data.l[0] = 1;
            message.xclient.data.l[1] = maximized[0];
            message.xclient.data.l[2] = maximized[1];
            message.xclient.data.l[3] = 1;
            XSendEvent(display, root, False, SubstructureRedirectMask | SubstructureNotifyMask, &message);
            XFlush(display);
        } else if (event.type == ConfigureNotify && (event.xconfigure.width != width || event.xconfigure.height != height)) {
            width = event.xconfigure.width;
            height = event.xconfigure.height;
            printf("size %d %d\n", width, height);
            fflush(stdout);
        }
    }
}
