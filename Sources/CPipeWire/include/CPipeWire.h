// CPipeWire: what the call watcher needs of libpipewire, as plain functions and one event type.
// PipeWire's listener and loop calls are C macros over its interfaces, which Swift cannot call:
// this shim makes the connection, binds every node to hear its info (state and properties) and
// reads every link's two ends, and queues what it heard as events for the caller to drain after
// each dispatch. libpipewire-0.3.so.0 is loaded with dlopen on the first call, so the owner and
// a monitor that watches no calls never map it; its headers come from libpipewire-0.3-dev.
// Start reading at wbpw_connect.

#ifndef WINDOWBANNER_CPIPEWIRE_H
#define WINDOWBANNER_CPIPEWIRE_H

#include <stdint.h>

/// What happened in the graph.
enum wbpw_kind {
    /// A node's state or properties, as they are now (every field below that a node has).
    WBPW_NODE = 1,
    /// A link from `output_node` to `input_node`.
    WBPW_LINK = 2,
    /// The object `id` (a node or a link) is gone.
    WBPW_REMOVED = 3,
    /// Everything there was when the connection was made has been reported.
    WBPW_SYNCED = 4,
    /// A client (a process connected to PipeWire): its pid as the socket vouches for it
    /// (`pipewire.sec.pid`), its name and Flatpak app id.
    WBPW_CLIENT = 5,
};

/// Node states, as PipeWire's `enum pw_node_state`.
enum wbpw_state { WBPW_STATE_ERROR = -1, WBPW_STATE_CREATING = 0, WBPW_STATE_SUSPENDED = 1, WBPW_STATE_IDLE = 2, WBPW_STATE_RUNNING = 3 };

/// The longest text kept of a property (more is cut): PipeWire's values come from any client.
#define WBPW_TEXT 128

/// One event. Texts are NUL-terminated, cut to WBPW_TEXT - 1 bytes, empty when unset.
struct wbpw_event {
    int kind;
    uint32_t id;
    int state;
    uint32_t output_node;
    uint32_t input_node;
    /// `application.process.id` (a client's: `pipewire.sec.pid`), 0 when unset or not a number.
    int32_t pid;
    /// A node's client (`client.id`); SPA_ID_INVALID when unknown.
    uint32_t client;
    /// `stream.monitor`, `node.passive` or `node.virtual` is true.
    int monitor;
    int passive;
    int is_virtual;
    /// A node: `device.id` is set (a device's node: a real camera or microphone).
    int is_device;
    char media_class[WBPW_TEXT];
    char application_name[WBPW_TEXT];
    char binary[WBPW_TEXT];
    /// `pipewire.access.portal.app_id`: a Flatpak app's id.
    char app_id[WBPW_TEXT];
    char media_name[WBPW_TEXT];
    char node_name[WBPW_TEXT];
    /// A client: `pipewire.access` ("portal" for a remote a portal opened for an app).
    char access[WBPW_TEXT];
};

typedef struct wbpw wbpw;

/// NULL when libpipewire can be used, else why not (the loader's message).
const char *wbpw_unavailable(void);

/// Connects to the PipeWire daemon `remote` (a socket's name or path; NULL: `PIPEWIRE_REMOTE`,
/// else `pipewire-0` in the runtime directory); NULL with `*error` set to a negative errno when
/// it cannot.
wbpw *wbpw_connect(const char *remote, int *error);

/// The descriptor to poll for reading; call wbpw_dispatch when it is readable.
int wbpw_fd(wbpw *connection);

/// Handles what is ready without waiting; queues events. Negative errno on failure.
int wbpw_dispatch(wbpw *connection);

/// Whether the connection is lost (PipeWire went away, or sent more than can be followed):
/// disconnect, and connect again to start afresh.
int wbpw_lost(wbpw *connection);

/// Moves up to `capacity` queued events into `events`, oldest first; how many.
int wbpw_take_events(wbpw *connection, struct wbpw_event *events, int capacity);

/// Disconnects and frees everything.
void wbpw_disconnect(wbpw *connection);

/// A node's event as it is made from the properties PipeWire sends (`count` key/value pairs in
/// `pairs`: key, value, key, value…; a value may be NULL), without a connection: what the
/// fuzz tests feed hostile properties through.
void wbpw_describe(const char *const *pairs, int count, struct wbpw_event *event);

#endif
