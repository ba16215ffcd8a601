// sd-bus through dlopen: see CSDBus.h for why. Each function of <systemd/sd-bus.h> that the
// package calls is defined here under its own name and forwards to libsystemd's, found by
// dlsym when the first of them is called. Start reading at SD_BUS_FUNCTIONS.

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>

// Hidden: the definitions below serve this binary's own calls only. Exported, they would stand
// in for libsystemd's own functions wherever the loader binds sd_bus_* by name.
#pragma GCC visibility push(hidden)
#include "CSDBus.h"

// Each sd-bus function called: its result type, name, parameters, the arguments passed on, and
// what it returns when libsystemd is unavailable. The compiler checks every line against the
// header's declaration.
#define SD_BUS_FUNCTIONS(F)                                                                                   \
    F(int, sd_bus_open_system, (sd_bus **ret), (ret), unavailable)                                            \
    F(int, sd_bus_open_user, (sd_bus **ret), (ret), unavailable)                                              \
    F(int, sd_bus_new, (sd_bus **ret), (ret), unavailable)                                                    \
    F(int, sd_bus_set_address, (sd_bus *bus, const char *address), (bus, address), unavailable)               \
    F(int, sd_bus_set_bus_client, (sd_bus *bus, int b), (bus, b), unavailable)                                \
    F(int, sd_bus_set_method_call_timeout, (sd_bus *bus, uint64_t usec), (bus, usec), unavailable)            \
    F(int, sd_bus_start, (sd_bus *bus), (bus), unavailable)                                                   \
    F(int, sd_bus_is_ready, (sd_bus *bus), (bus), unavailable)                                                \
    F(int, sd_bus_get_fd, (sd_bus *bus), (bus), unavailable)                                                  \
    F(int, sd_bus_get_events, (sd_bus *bus), (bus), unavailable)                                              \
    F(int, sd_bus_get_timeout, (sd_bus *bus, uint64_t *timeout_usec), (bus, timeout_usec), unavailable)       \
    F(int, sd_bus_get_unique_name, (sd_bus *bus, const char **unique), (bus, unique), unavailable)            \
    F(int, sd_bus_process, (sd_bus *bus, sd_bus_message **r), (bus, r), unavailable)                          \
    F(int, sd_bus_wait, (sd_bus *bus, uint64_t timeout_usec), (bus, timeout_usec), unavailable)               \
    F(int, sd_bus_flush, (sd_bus *bus), (bus), unavailable)                                                   \
    F(sd_bus *, sd_bus_flush_close_unref, (sd_bus *bus), (bus), NULL)                                         \
    F(sd_bus *, sd_bus_close_unref, (sd_bus *bus), (bus), NULL)                                               \
    F(int, sd_bus_send, (sd_bus *bus, sd_bus_message *m, uint64_t *cookie), (bus, m, cookie), unavailable)    \
    F(int, sd_bus_call, (sd_bus *bus, sd_bus_message *m, uint64_t usec, sd_bus_error *ret_error, sd_bus_message **reply), \
      (bus, m, usec, ret_error, reply), unavailable)                                                          \
    F(int, sd_bus_call_async, (sd_bus *bus, sd_bus_slot **slot, sd_bus_message *m, sd_bus_message_handler_t callback, void *userdata, uint64_t usec), \
      (bus, slot, m, callback, userdata, usec), unavailable)                                                  \
    F(int, sd_bus_get_property_trivial, (sd_bus *bus, const char *destination, const char *path, const char *interface, const char *member, sd_bus_error *ret_error, char type, void *ret_ptr), \
      (bus, destination, path, interface, member, ret_error, type, ret_ptr), unavailable)                     \
    F(int, sd_bus_add_match, (sd_bus *bus, sd_bus_slot **slot, const char *match, sd_bus_message_handler_t callback, void *userdata), \
      (bus, slot, match, callback, userdata), unavailable)                                                    \
    F(int, sd_bus_add_fallback, (sd_bus *bus, sd_bus_slot **slot, const char *prefix, sd_bus_message_handler_t callback, void *userdata), \
      (bus, slot, prefix, callback, userdata), unavailable)                                                   \
    F(sd_bus_slot *, sd_bus_slot_unref, (sd_bus_slot *slot), (slot), NULL)                                    \
    F(int, sd_bus_message_new_method_call, (sd_bus *bus, sd_bus_message **m, const char *destination, const char *path, const char *interface, const char *member), \
      (bus, m, destination, path, interface, member), unavailable)                                            \
    F(int, sd_bus_message_new_method_return, (sd_bus_message *call, sd_bus_message **m), (call, m), unavailable) \
    F(int, sd_bus_message_new_signal, (sd_bus *bus, sd_bus_message **m, const char *path, const char *interface, const char *member), \
      (bus, m, path, interface, member), unavailable)                                                         \
    F(sd_bus_message *, sd_bus_message_unref, (sd_bus_message *m), (m), NULL)                                 \
    F(int, sd_bus_message_append_basic, (sd_bus_message *m, char type, const void *p), (m, type, p), unavailable) \
    F(int, sd_bus_message_read_basic, (sd_bus_message *m, char type, void *p), (m, type, p), unavailable)     \
    F(int, sd_bus_message_skip, (sd_bus_message *m, const char *types), (m, types), unavailable)              \
    F(int, sd_bus_message_peek_type, (sd_bus_message *m, char *type, const char **contents), (m, type, contents), unavailable) \
    F(int, sd_bus_message_open_container, (sd_bus_message *m, char type, const char *contents), (m, type, contents), unavailable) \
    F(int, sd_bus_message_close_container, (sd_bus_message *m), (m), unavailable)                             \
    F(int, sd_bus_message_enter_container, (sd_bus_message *m, char type, const char *contents), (m, type, contents), unavailable) \
    F(int, sd_bus_message_exit_container, (sd_bus_message *m), (m), unavailable)                              \
    F(int, sd_bus_message_append_array, (sd_bus_message *m, char type, const void *ptr, size_t size), (m, type, ptr, size), unavailable) \
    F(const char *, sd_bus_message_get_sender, (sd_bus_message *m), (m), NULL)                                \
    F(const sd_bus_error *, sd_bus_message_get_error, (sd_bus_message *m), (m), NULL)                         \
    F(const char *, sd_bus_message_get_path, (sd_bus_message *m), (m), NULL)                                  \
    F(const char *, sd_bus_message_get_interface, (sd_bus_message *m), (m), NULL)                             \
    F(const char *, sd_bus_message_get_member, (sd_bus_message *m), (m), NULL)                                \
    F(int, sd_bus_message_is_method_call, (sd_bus_message *m, const char *interface, const char *member), (m, interface, member), unavailable) \
    F(int, sd_bus_message_is_method_error, (sd_bus_message *m, const char *name), (m, name), unavailable)     \
    F(int, sd_bus_reply_method_error, (sd_bus_message *call, const sd_bus_error *e), (call, e), unavailable)  \
    F(int, sd_bus_error_set, (sd_bus_error *e, const char *name, const char *message), (e, name, message), unavailable) \
    /* Nothing can have set an error while libsystemd is unavailable. */                                      \
    F(int, sd_bus_error_is_set, (const sd_bus_error *e), (e), 0)

static struct {
#define POINTER(type, name, parameters, arguments, failure) __typeof__(name) *name;
    SD_BUS_FUNCTIONS(POINTER)
#undef POINTER
    __typeof__(sd_bus_error_free) *sd_bus_error_free;
} libsystemd;

// 0 once every function is found, else the negative errno each call returns.
static int unavailable;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        unavailable = -ELIBACC;
        return;
    }
#define FIND(type, name, parameters, arguments, failure) \
    *(void **)(&libsystemd.name) = dlsym(library, #name);   \
    if (libsystemd.name == NULL) {                          \
        unavailable = -ENOSYS;                              \
        return;                                             \
    }
    SD_BUS_FUNCTIONS(FIND)
    FIND(void, sd_bus_error_free, , , )
#undef FIND
}

/// Loads libsystemd once per process, whichever thread calls first; true when it is usable.
static int loaded(void) {
    pthread_once(&once, load);
    return unavailable == 0;
}

#define FORWARD(type, name, parameters, arguments, failure) \
    type name parameters { return loaded() ? libsystemd.name arguments : failure; }
SD_BUS_FUNCTIONS(FORWARD)
#undef FORWARD

void sd_bus_error_free(sd_bus_error *e) {
    if (loaded()) libsystemd.sd_bus_error_free(e);
}

#pragma GCC visibility pop
