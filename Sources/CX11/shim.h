// The C surface WindowBanner uses: Xlib, Xft, XRender, fontconfig, XRandR, XShape, HarfBuzz, FriBidi.
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
#include <fontconfig/fontconfig.h>
#include <hb.h>
#include <hb-ft.h>
#include <fribidi.h>

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

/// fontconfig's object names are macros too.
static inline const char *wb_FC_FAMILY(void) { return FC_FAMILY; }
static inline const char *wb_FC_SIZE(void) { return FC_SIZE; }
static inline const char *wb_FC_PIXEL_SIZE(void) { return FC_PIXEL_SIZE; }
static inline const char *wb_FC_CHARSET(void) { return FC_CHARSET; }
static inline const char *wb_FC_COLOR(void) { return FC_COLOR; }
static inline const char *wb_FC_FILE(void) { return FC_FILE; }
static inline const char *wb_FC_INDEX(void) { return FC_INDEX; }

/// FriBidi's paragraph directions are macros built from flag macros.
static inline FriBidiParType wb_FRIBIDI_PAR_ON(void) { return FRIBIDI_PAR_ON; }
static inline FriBidiParType wb_FRIBIDI_PAR_LTR(void) { return FRIBIDI_PAR_LTR; }
static inline FriBidiParType wb_FRIBIDI_PAR_RTL(void) { return FRIBIDI_PAR_RTL; }
static inline int wb_FRIBIDI_IS_RTL(FriBidiParType type) { return FRIBIDI_IS_RTL(type); }

#endif
