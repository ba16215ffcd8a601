// The call watcher's PipeWire connection: see CPipeWire.h. The exported functions of
// libpipewire it needs are found with dlsym when the first connection is made; everything else
// PipeWire's headers offer is inline (its loop, core, registry, node and link calls are macros
// over interfaces), so that is all there is to load. Start reading at wbpw_connect.

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <pipewire/impl-module.h>
#include <pipewire/pipewire.h>

#include "CPipeWire.h"

// Hidden: these serve this binary's own calls only.
#pragma GCC visibility push(hidden)

/// libpipewire's exported functions the shim calls, found by dlsym.
static struct {
    __typeof__(pw_init) *init;
    __typeof__(pw_loop_new) *loop_new;
    __typeof__(pw_loop_destroy) *loop_destroy;
    __typeof__(pw_context_new) *context_new;
    __typeof__(pw_context_destroy) *context_destroy;
    __typeof__(pw_context_connect) *context_connect;
    __typeof__(pw_core_disconnect) *core_disconnect;
    __typeof__(pw_proxy_destroy) *proxy_destroy;
    __typeof__(pw_properties_new_dict) *properties_new_dict;
    __typeof__(pw_context_load_module) *context_load_module;
    __typeof__(pw_log_set_level) *log_set_level;
} library;

static const char *unavailable_reason;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *handle = dlopen("libpipewire-0.3.so.0", RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *message = dlerror();
        unavailable_reason = message != NULL ? strdup(message) : "libpipewire-0.3.so.0 cannot be loaded";
        return;
    }
#define FIND(field, name)                                                              \
    library.field = (__typeof__(library.field))dlsym(handle, name);                    \
    if (library.field == NULL) {                                                       \
        unavailable_reason = "libpipewire-0.3.so.0 has no " name;                      \
        return;                                                                        \
    }
    FIND(init, "pw_init")
    FIND(loop_new, "pw_loop_new")
    FIND(loop_destroy, "pw_loop_destroy")
    FIND(context_new, "pw_context_new")
    FIND(context_destroy, "pw_context_destroy")
    FIND(context_connect, "pw_context_connect")
    FIND(core_disconnect, "pw_core_disconnect")
    FIND(proxy_destroy, "pw_proxy_destroy")
    FIND(properties_new_dict, "pw_properties_new_dict")
    FIND(context_load_module, "pw_context_load_module")
    FIND(log_set_level, "pw_log_set_level")
#undef FIND
    library.init(NULL, NULL);
    // libpipewire's warnings about this lean context (no config's modules, no RT module) are
    // no news to the monitor's reader; PIPEWIRE_DEBUG still has the last word.
    if (getenv("PIPEWIRE_DEBUG") == NULL) library.log_set_level(SPA_LOG_LEVEL_ERROR);
}

const char *wbpw_unavailable(void) {
    pthread_once(&once, load);
    return unavailable_reason;
}

/// The most nodes followed at once, and the most events queued between two drains: more is
/// reported as a lost connection, and the caller starts afresh (a flood, not a desktop).
enum { MAX_NODES = 2048, MAX_EVENTS = 8192 };

struct bound_node {
    uint32_t id;
    /// The node as last described: an info event carries only what changed.
    struct wbpw_event last;
    struct pw_proxy *proxy;
    struct spa_hook listener;
    struct wbpw *connection;
    struct bound_node *next;
};

struct wbpw {
    struct pw_loop *loop;
    struct pw_context *context;
    struct pw_core *core;
    struct pw_registry *registry;
    struct spa_hook core_listener;
    struct spa_hook registry_listener;
    struct bound_node *nodes;
    int node_count;
    int sync;
    struct wbpw_event *events;
    int event_count;
    int event_capacity;
    int lost;
};

static void copy_text(char *target, const char *value) {
    if (value == NULL) {
        target[0] = 0;
        return;
    }
    size_t length = strnlen(value, WBPW_TEXT - 1);
    // Cut where a character begins: a value cut short keeps whole UTF-8 sequences.
    if (value[length] != 0)
        while (length > 0 && ((unsigned char)value[length] & 0xC0) == 0x80) length--;
    memcpy(target, value, length);
    target[length] = 0;
}

static int is_true(const char *value) {
    return value != NULL && (strcmp(value, "true") == 0 || strcmp(value, "1") == 0);
}

static uint32_t number(const char *value) {
    // Digits only: strtoul would also take spaces and a sign.
    if (value == NULL || *value < '0' || *value > '9') return SPA_ID_INVALID;
    char *end = NULL;
    errno = 0;
    unsigned long parsed = strtoul(value, &end, 10);
    if (errno != 0 || end == value || *end != 0 || parsed > UINT32_MAX) return SPA_ID_INVALID;
    return (uint32_t)parsed;
}

/// A new event at the end of the queue, zeroed; NULL (and the connection marked lost) when the
/// queue is full.
static struct wbpw_event *queue(struct wbpw *connection, int kind, uint32_t id) {
    if (connection->event_count == connection->event_capacity) {
        int capacity = connection->event_capacity == 0 ? 64 : connection->event_capacity * 2;
        struct wbpw_event *grown = capacity > MAX_EVENTS ? NULL : realloc(connection->events, sizeof *grown * (size_t)capacity);
        if (grown == NULL) {
            connection->lost = 1;
            return NULL;
        }
        connection->events = grown;
        connection->event_capacity = capacity;
    }
    struct wbpw_event *event = &connection->events[connection->event_count++];
    memset(event, 0, sizeof *event);
    event->kind = kind;
    event->id = id;
    event->state = WBPW_STATE_CREATING;
    return event;
}

/// A node's properties into `event`.
static void describe(struct wbpw_event *event, const struct spa_dict *props) {
    if (props == NULL) return;
    copy_text(event->media_class, spa_dict_lookup(props, PW_KEY_MEDIA_CLASS));
    copy_text(event->application_name, spa_dict_lookup(props, PW_KEY_APP_NAME));
    copy_text(event->binary, spa_dict_lookup(props, PW_KEY_APP_PROCESS_BINARY));
    copy_text(event->app_id, spa_dict_lookup(props, "pipewire.access.portal.app_id"));
    copy_text(event->media_name, spa_dict_lookup(props, PW_KEY_MEDIA_NAME));
    copy_text(event->node_name, spa_dict_lookup(props, PW_KEY_NODE_NAME));
    uint32_t pid = number(spa_dict_lookup(props, PW_KEY_SEC_PID));
    if (pid == SPA_ID_INVALID) pid = number(spa_dict_lookup(props, PW_KEY_APP_PROCESS_ID));
    event->pid = pid == SPA_ID_INVALID || pid > INT32_MAX ? 0 : (int32_t)pid;
    event->client = number(spa_dict_lookup(props, PW_KEY_CLIENT_ID));
    event->monitor = is_true(spa_dict_lookup(props, PW_KEY_STREAM_MONITOR));
    event->passive = is_true(spa_dict_lookup(props, PW_KEY_NODE_PASSIVE));
    event->is_virtual = is_true(spa_dict_lookup(props, PW_KEY_NODE_VIRTUAL));
    event->is_device = spa_dict_lookup(props, PW_KEY_DEVICE_ID) != NULL;
    copy_text(event->access, spa_dict_lookup(props, PW_KEY_ACCESS));
}

void wbpw_describe(const char *const *pairs, int count, struct wbpw_event *event) {
    memset(event, 0, sizeof *event);
    event->kind = WBPW_NODE;
    event->state = WBPW_STATE_CREATING;
    if (pairs == NULL || count <= 0) return;
    struct spa_dict_item *items = calloc((size_t)count, sizeof *items);
    if (items == NULL) return;
    for (int index = 0; index < count; index++) items[index] = SPA_DICT_ITEM_INIT(pairs[2 * index], pairs[2 * index + 1]);
    struct spa_dict dict = SPA_DICT_INIT(items, (uint32_t)count);
    describe(event, &dict);
    free(items);
}

// A bound node's info: what changed of its state and properties, merged into what is known
// of it and reported whole.
static void node_info(void *data, const struct pw_node_info *info) {
    struct bound_node *node = data;
    if (info->change_mask & PW_NODE_CHANGE_MASK_STATE) node->last.state = info->state;
    if (info->change_mask & PW_NODE_CHANGE_MASK_PROPS) {
        int state = node->last.state;
        memset(&node->last, 0, sizeof node->last);
        node->last.state = state;
        describe(&node->last, info->props);
    }
    node->last.kind = WBPW_NODE;
    node->last.id = node->id;
    struct wbpw_event *event = queue(node->connection, WBPW_NODE, node->id);
    if (event != NULL) *event = node->last;
}

static const struct pw_node_events node_events = {
    .version = PW_VERSION_NODE_EVENTS,
    .info = node_info,
};

static void forget_node(struct wbpw *connection, uint32_t id) {
    for (struct bound_node **link = &connection->nodes; *link != NULL; link = &(*link)->next) {
        struct bound_node *node = *link;
        if (node->id != id) continue;
        *link = node->next;
        spa_hook_remove(&node->listener);
        library.proxy_destroy(node->proxy);
        free(node);
        connection->node_count--;
        return;
    }
}

// A new object: streams that capture are bound to follow their state; sources are reported
// from what the registry says (their class is all that matters); links by their two ends.
static void registry_global(void *data, uint32_t id, uint32_t permissions, const char *type, uint32_t version, const struct spa_dict *props) {
    (void)permissions;
    (void)version;
    struct wbpw *connection = data;
    if (strcmp(type, PW_TYPE_INTERFACE_Link) == 0) {
        struct wbpw_event *event = queue(connection, WBPW_LINK, id);
        if (event == NULL) return;
        event->output_node = number(props != NULL ? spa_dict_lookup(props, PW_KEY_LINK_OUTPUT_NODE) : NULL);
        event->input_node = number(props != NULL ? spa_dict_lookup(props, PW_KEY_LINK_INPUT_NODE) : NULL);
        return;
    }
    if (strcmp(type, PW_TYPE_INTERFACE_Client) == 0) {
        struct wbpw_event *event = queue(connection, WBPW_CLIENT, id);
        if (event != NULL) describe(event, props);
        return;
    }
    if (strcmp(type, PW_TYPE_INTERFACE_Node) != 0 || props == NULL) return;
    const char *media_class = spa_dict_lookup(props, PW_KEY_MEDIA_CLASS);
    if (media_class == NULL) return;
    if (strncmp(media_class, "Stream/Input/", 13) != 0) {
        struct wbpw_event *event = queue(connection, WBPW_NODE, id);
        if (event != NULL) describe(event, props);
        return;
    }
    if (connection->node_count >= MAX_NODES) {
        connection->lost = 1;
        return;
    }
    struct bound_node *node = calloc(1, sizeof *node);
    if (node == NULL) return;
    node->proxy = pw_registry_bind(connection->registry, id, PW_TYPE_INTERFACE_Node, PW_VERSION_NODE, 0);
    if (node->proxy == NULL) {
        free(node);
        return;
    }
    node->id = id;
    node->connection = connection;
    node->last.state = WBPW_STATE_CREATING;
    describe(&node->last, props);
    pw_node_add_listener((struct pw_node *)node->proxy, &node->listener, &node_events, node);
    node->next = connection->nodes;
    connection->nodes = node;
    connection->node_count++;
}

static void registry_global_remove(void *data, uint32_t id) {
    struct wbpw *connection = data;
    forget_node(connection, id);
    queue(connection, WBPW_REMOVED, id);
}

static const struct pw_registry_events registry_events = {
    .version = PW_VERSION_REGISTRY_EVENTS,
    .global = registry_global,
    .global_remove = registry_global_remove,
};

static void core_done(void *data, uint32_t id, int seq) {
    struct wbpw *connection = data;
    if (id == PW_ID_CORE && seq == connection->sync) queue(connection, WBPW_SYNCED, 0);
}

static void core_error(void *data, uint32_t id, int seq, int res, const char *message) {
    (void)seq;
    (void)message;
    struct wbpw *connection = data;
    if (id == PW_ID_CORE && res == -EPIPE) connection->lost = 1;
}

static const struct pw_core_events core_events = {
    .version = PW_VERSION_CORE_EVENTS,
    .done = core_done,
    .error = core_error,
};

wbpw *wbpw_connect(const char *remote, int *error) {
    if (wbpw_unavailable() != NULL) {
        *error = -ELIBACC;
        return NULL;
    }
    struct wbpw *connection = calloc(1, sizeof *connection);
    if (connection == NULL) {
        *error = -ENOMEM;
        return NULL;
    }
    connection->loop = library.loop_new(NULL);
    if (connection->loop != NULL) {
        // A registry reader needs the native protocol and nothing else: no client.conf (whose
        // modules — client-node, adapter, metadata, session-manager — are for clients that
        // make streams and cost memory), no D-Bus support plugin (RT scheduling over the bus).
        struct spa_dict_item items[] = {
            SPA_DICT_ITEM_INIT(PW_KEY_CONFIG_NAME, "null"),
            SPA_DICT_ITEM_INIT("support.dbus", "false"),
        };
        struct spa_dict dict = SPA_DICT_INIT(items, 2);
        connection->context = library.context_new(connection->loop, library.properties_new_dict(&dict), 0);
    }
    if (connection->context != NULL && library.context_load_module(connection->context, "libpipewire-module-protocol-native", NULL, NULL) == NULL) {
        library.context_destroy(connection->context);
        connection->context = NULL;
    }
    if (connection->context != NULL) {
        struct pw_properties *properties = NULL;
        if (remote != NULL) {
            struct spa_dict_item items[] = {SPA_DICT_ITEM_INIT(PW_KEY_REMOTE_NAME, remote)};
            struct spa_dict dict = SPA_DICT_INIT(items, 1);
            properties = library.properties_new_dict(&dict);
        }
        // pw_context_connect takes the properties over, even when it fails.
        connection->core = library.context_connect(connection->context, properties, 0);
    }
    if (connection->core == NULL) {
        *error = errno != 0 ? -errno : -ECONNREFUSED;
        wbpw_disconnect(connection);
        return NULL;
    }
    pw_core_add_listener(connection->core, &connection->core_listener, &core_events, connection);
    connection->registry = pw_core_get_registry(connection->core, PW_VERSION_REGISTRY, 0);
    if (connection->registry == NULL) {
        *error = -ENOMEM;
        wbpw_disconnect(connection);
        return NULL;
    }
    pw_registry_add_listener(connection->registry, &connection->registry_listener, &registry_events, connection);
    connection->sync = pw_core_sync(connection->core, PW_ID_CORE, 0);
    return connection;
}

int wbpw_fd(wbpw *connection) {
    return pw_loop_get_fd(connection->loop);
}

int wbpw_dispatch(wbpw *connection) {
    pw_loop_enter(connection->loop);
    int result = pw_loop_iterate(connection->loop, 0);
    pw_loop_leave(connection->loop);
    return result < 0 && result != -EINTR ? result : 0;
}

int wbpw_lost(wbpw *connection) {
    return connection->lost;
}

int wbpw_take_events(wbpw *connection, struct wbpw_event *events, int capacity) {
    int count = connection->event_count < capacity ? connection->event_count : capacity;
    if (count <= 0) return 0;
    memcpy(events, connection->events, sizeof *events * (size_t)count);
    memmove(connection->events, connection->events + count, sizeof *events * (size_t)(connection->event_count - count));
    connection->event_count -= count;
    return count;
}

void wbpw_disconnect(wbpw *connection) {
    if (connection == NULL) return;
    while (connection->nodes != NULL) forget_node(connection, connection->nodes->id);
    if (connection->registry != NULL) {
        spa_hook_remove(&connection->registry_listener);
        library.proxy_destroy((struct pw_proxy *)connection->registry);
    }
    if (connection->core != NULL) {
        spa_hook_remove(&connection->core_listener);
        library.core_disconnect(connection->core);
    }
    if (connection->context != NULL) library.context_destroy(connection->context);
    if (connection->loop != NULL) library.loop_destroy(connection->loop);
    free(connection->events);
    free(connection);
}

#pragma GCC visibility pop
