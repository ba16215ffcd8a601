// The accessor declared in include/CWaylandTestProtocols.h.
#include "CWaylandTestProtocols.h"

const struct wl_interface *wb_zwlr_virtual_pointer_manager_v1_interface(void) {
    return &zwlr_virtual_pointer_manager_v1_interface;
}
