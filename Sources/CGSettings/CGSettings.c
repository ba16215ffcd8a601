// GSettings through dlopen: see CGSettings.h for why. The GLib functions used are declared here
// with their C ABI (GLib's own types as opaque pointers, gboolean as int, gsize as size_t), and
// found in libgio-2.0.so.0 and the libraries it brings (libgobject, libglib) on the first open.

#include "CGSettings.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#pragma GCC visibility push(hidden)

typedef struct { int fd; unsigned short events; unsigned short revents; } GPollFD;
typedef void (*GLogFunc)(const char *domain, int level, const char *message, void *data);

#define GLIB_FUNCTIONS(F)                                                                                   \
    F(void *, g_settings_schema_source_get_default, (void))                                                \
    F(void *, g_settings_schema_source_lookup, (void *source, const char *id, int recursive))              \
    F(int, g_settings_schema_has_key, (void *schema, const char *name))                                    \
    F(void, g_settings_schema_unref, (void *schema))                                                       \
    F(void *, g_settings_backend_get_default, (void))                                                      \
    F(void *, g_settings_new_full, (void *schema, void *backend, const char *path))                        \
    F(void *, g_settings_get_value, (void *settings, const char *key))                                     \
    F(const char *, g_variant_get_type_string, (void *value))                                              \
    F(int, g_variant_get_boolean, (void *value))                                                           \
    F(double, g_variant_get_double, (void *value))                                                         \
    F(int, g_variant_get_int32, (void *value))                                                             \
    F(unsigned, g_variant_get_uint32, (void *value))                                                       \
    F(const char *, g_variant_get_string, (void *value, size_t *length))                                   \
    F(void, g_variant_unref, (void *value))                                                                \
    F(unsigned long, g_signal_connect_data, (void *instance, const char *signal, void (*handler)(void), void *data, void *destroy, int flags)) \
    F(void, g_signal_handler_disconnect, (void *instance, unsigned long id))                               \
    F(const char *, g_type_name_from_instance, (void *instance))                                           \
    F(void, g_object_unref, (void *object))                                                                \
    F(void *, g_main_context_default, (void))                                                              \
    F(int, g_main_context_acquire, (void *context))                                                        \
    F(int, g_main_context_prepare, (void *context, int *priority))                                         \
    F(int, g_main_context_query, (void *context, int priority, int *timeout, GPollFD *fds, int count))     \
    F(int, g_main_context_check, (void *context, int priority, GPollFD *fds, int count))                   \
    F(void, g_main_context_dispatch, (void *context))                                                      \
    F(int, g_main_context_iteration, (void *context, int may_block))                                       \
    F(unsigned, g_log_set_handler, (const char *domain, int levels, GLogFunc handler, void *data))         \
    F(void, g_log_remove_handler, (const char *domain, unsigned id))

static struct {
#define POINTER(type, name, parameters) type(*name) parameters;
    GLIB_FUNCTIONS(POINTER)
#undef POINTER
} glib;

// 1 once every function is found, -1 when GIO cannot be used, 0 before the first try.
static int state;

static int loaded(void) {
    if (state != 0) return state > 0;
    state = -1;
    void *library = dlopen("libgio-2.0.so.0", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return 0;
#define FIND(type, name, parameters)                      \
    *(void **)(&glib.name) = dlsym(library, #name);       \
    if (glib.name == NULL) return 0;
    GLIB_FUNCTIONS(FIND)
#undef FIND
    state = 1;
    return 1;
}

struct cgsettings {
    void *settings;
    void *schema;
    unsigned long handler;
    void (*changed)(void *context);
    void *context;
};

// GSettings' "changed" signal: (GSettings *, const char *key, gpointer data).
static void on_changed(void *instance, const char *key, void *data) {
    (void)instance;
    (void)key;
    struct cgsettings *settings = data;
    settings->changed(settings->context);
}

static void quiet(const char *domain, int level, const char *message, void *data) {
    (void)domain, (void)level, (void)message, (void)data;
}

// G_LOG_LEVEL_MESSAGE: GIO's note that it falls back to keeping settings in memory.
enum { LOG_LEVEL_MESSAGE = 1 << 5 };

cgsettings *cgsettings_open(const char *schema_id, void (*changed)(void *context), void *context) {
    if (!loaded()) return NULL;
    void *source = glib.g_settings_schema_source_get_default();
    if (source == NULL) return NULL;
    void *schema = glib.g_settings_schema_source_lookup(source, schema_id, 1);
    if (schema == NULL) return NULL;
    // Without dconf, GIO keeps settings in memory (its defaults, nobody's desktop) and says so
    // on standard error: neither is of use to a banner.
    unsigned quieted = glib.g_log_set_handler("GLib-GIO", LOG_LEVEL_MESSAGE, quiet, NULL);
    void *backend = glib.g_settings_backend_get_default();
    glib.g_log_remove_handler("GLib-GIO", quieted);
    const char *kind = backend ? glib.g_type_name_from_instance(backend) : NULL;
    if (kind == NULL || strcmp(kind, "GMemorySettingsBackend") == 0 || strcmp(kind, "GNullSettingsBackend") == 0) {
        if (backend) glib.g_object_unref(backend);
        glib.g_settings_schema_unref(schema);
        return NULL;
    }
    struct cgsettings *settings = calloc(1, sizeof *settings);
    if (settings == NULL) {
        glib.g_object_unref(backend);
        glib.g_settings_schema_unref(schema);
        return NULL;
    }
    settings->settings = glib.g_settings_new_full(schema, backend, NULL);
    glib.g_object_unref(backend);
    settings->schema = schema;
    settings->changed = changed;
    settings->context = context;
    settings->handler = glib.g_signal_connect_data(settings->settings, "changed", (void (*)(void))on_changed, settings, NULL, 0);
    return settings;
}

void cgsettings_read(cgsettings *settings, const char *key, cgsettings_value *value) {
    memset(value, 0, sizeof *value);
    // g_settings_get_value aborts on a key its schema lacks (an older desktop's schema).
    if (!glib.g_settings_schema_has_key(settings->schema, key)) return;
    void *variant = glib.g_settings_get_value(settings->settings, key);
    if (variant == NULL) return;
    const char *type = glib.g_variant_get_type_string(variant);
    if (strcmp(type, "b") == 0) {
        value->kind = CGSETTINGS_BOOLEAN;
        value->boolean = glib.g_variant_get_boolean(variant) != 0;
    } else if (strcmp(type, "d") == 0) {
        value->kind = CGSETTINGS_DOUBLE;
        value->number = glib.g_variant_get_double(variant);
    } else if (strcmp(type, "i") == 0) {
        value->kind = CGSETTINGS_INTEGER;
        value->integer = glib.g_variant_get_int32(variant);
    } else if (strcmp(type, "u") == 0) {
        value->kind = CGSETTINGS_INTEGER;
        value->integer = glib.g_variant_get_uint32(variant);
    } else if (strcmp(type, "s") == 0) {
        size_t length = 0;
        const char *text = glib.g_variant_get_string(variant, &length);
        if (length > CGSETTINGS_TEXT_BYTES) length = CGSETTINGS_TEXT_BYTES;
        value->kind = CGSETTINGS_STRING;
        memcpy(value->text, text, length);
        value->text[length] = 0;
    }
    glib.g_variant_unref(variant);
}

void cgsettings_close(cgsettings *settings) {
    if (settings == NULL) return;
    glib.g_signal_handler_disconnect(settings->settings, settings->handler);
    glib.g_object_unref(settings->settings);
    glib.g_settings_schema_unref(settings->schema);
    free(settings);
}

int cgsettings_descriptors(int *descriptors, int capacity) {
    if (state <= 0) return -1;
    void *context = glib.g_main_context_default();
    if (!glib.g_main_context_acquire(context)) return -1;
    int priority = 0;
    int timeout = 0;
    GPollFD polls[16];
    glib.g_main_context_prepare(context, &priority);
    int count = glib.g_main_context_query(context, priority, &timeout, polls, 16);
    if (count > 16) count = 16;
    glib.g_main_context_check(context, priority, polls, count);
    glib.g_main_context_dispatch(context);
    // Kept: GIO's bus thread wakes the context's descriptor only while a thread owns it.
    int given = 0;
    for (int index = 0; index < count && given < capacity; index++) descriptors[given++] = polls[index].fd;
    return given;
}

void cgsettings_dispatch(void) {
    if (state <= 0) return;
    // Bounded: what is ready now, not what it makes ready after.
    for (int turn = 0; turn < 64 && glib.g_main_context_iteration(NULL, 0); turn++) {}
}

#pragma GCC visibility pop
