// The wlr-virtual-pointer client glue (scripts/wayland-glue.sh) for the tests' pointer device,
// and the address of its manager's interface description for wl_registry_bind.
#ifndef WINDOWBANNER_CWAYLANDTESTPROTOCOLS_H
#define WINDOWBANNER_CWAYLANDTESTPROTOCOLS_H

#include <wayland-client.h>
#include "wlr-virtual-pointer-unstable-v1-client-protocol.h"

/// &zwlr_virtual_pointer_manager_v1_interface.
const struct wl_interface *wb_zwlr_virtual_pointer_manager_v1_interface(void);

#endif
