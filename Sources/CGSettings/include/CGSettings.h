// CGSettings: the few GSettings calls (GIO) that read the desktop's preferences where no portal
// relays them — a Wayland session without xdg-desktop-portal, whose GTK applications read the
// same keys from dconf through GSettings. GIO is loaded with dlopen(3) on the first call, so an
// owner that has a portal, or is on X11, never maps GLib; its types stay behind this header, so
// no GLib header or include path is needed to build.
//
// Not thread-safe: one thread (the owner's loop) opens, reads and dispatches.

#ifndef WINDOWBANNER_CGSETTINGS_H
#define WINDOWBANNER_CGSETTINGS_H

#include <stddef.h>

/// One schema's settings, opened by `cgsettings_open`.
typedef struct cgsettings cgsettings;

/// What a key holds, as far as the banner reads settings.
typedef enum {
    CGSETTINGS_NONE = 0,
    CGSETTINGS_BOOLEAN,
    CGSETTINGS_DOUBLE,
    CGSETTINGS_INTEGER,
    CGSETTINGS_STRING,
} cgsettings_kind;

/// One key's value; `text` holds at most CGSETTINGS_TEXT_BYTES bytes and a terminating NUL.
#define CGSETTINGS_TEXT_BYTES 1024
typedef struct {
    cgsettings_kind kind;
    int boolean;
    double number;
    long long integer;
    char text[CGSETTINGS_TEXT_BYTES + 1];
} cgsettings_value;

/// Opens the schema `schema_id` from the installed schemas with the default backend, calling
/// `changed(context)` when one of its keys changes (while `cgsettings_dispatch` runs). NULL when
/// GIO cannot be loaded, the schema is not installed, or GIO would keep settings only in
/// memory (no dconf: nothing of the desktop's to read).
cgsettings *cgsettings_open(const char *schema_id, void (*changed)(void *context), void *context);

/// Reads `key` into `value`; its kind is CGSETTINGS_NONE when the schema has no such key or it
/// holds another type.
void cgsettings_read(cgsettings *settings, const char *key, cgsettings_value *value);

/// Closes `settings`: no more calls of its `changed`.
void cgsettings_close(cgsettings *settings);

/// The descriptors GLib's default main context waits on (its wake-up descriptor: changes that
/// GIO's bus thread receives are handed over through it), at most `capacity` of them into
/// `descriptors`; how many, or -1 when GIO is not loaded. The calling thread owns that context
/// from then on (g_main_context_acquire): GLib wakes a context's descriptor only when a thread
/// owns it, and only that thread may call `cgsettings_dispatch`.
int cgsettings_descriptors(int *descriptors, int capacity);

/// Runs what is ready on GLib's default main context, without blocking: the `changed` calls.
void cgsettings_dispatch(void);

#endif
