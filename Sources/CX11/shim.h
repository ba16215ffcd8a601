// The C surface of the X11 backend: Xlib, Xft, XRender, XRandR, XShape (the shared text stack
// — fontconfig, FreeType, HarfBuzz, FriBidi — is CText).
// Xlib's accessor macros do not import into Swift; each one is bridged here
// by a static inline function named after the macro.
#ifndef WINDOWBANNER_CX11_SHIM_H
#define WINDOWBANNER_CX11_SHIM_H

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/Xresource.h>
#include <X11/Xlib-xcb.h>
#include <xcb/xcb.h>
#include <X11/Xft/Xft.h>
#include <X11/extensions/Xrender.h>
#include <X11/extensions/Xrandr.h>
#include <X11/extensions/shape.h>
#include <X11/extensions/scrnsaver.h>

static inline int wb_DefaultScreen(Display *d) { return DefaultScreen(d); }
static inline Window wb_RootWindow(Display *d, int s) { return RootWindow(d, s); }
static inline Visual *wb_DefaultVisual(Display *d, int s) { return DefaultVisual(d, s); }
static inline Colormap wb_DefaultColormap(Display *d, int s) { return DefaultColormap(d, s); }
static inline int wb_DefaultDepth(Display *d, int s) { return DefaultDepth(d, s); }
static inline int wb_DisplayWidth(Display *d, int s) { return DisplayWidth(d, s); }
static inline int wb_DisplayHeight(Display *d, int s) { return DisplayHeight(d, s); }
static inline int wb_ConnectionNumber(Display *d) { return ConnectionNumber(d); }

static inline unsigned long wb_XGetPixel(XImage *image, int x, int y) { return XGetPixel(image, x, y); }
static inline int wb_XDestroyImage(XImage *image) { return XDestroyImage(image); }

#endif
