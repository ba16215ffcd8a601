// The wlr-virtual-pointer and KDE fake-input client glue (scripts/wayland-glue.sh) for the
// tests' pointer devices, and the addresses of their globals' interface descriptions for
// wl_registry_bind.
#ifndef WINDOWBANNER_CWAYLANDTESTPROTOCOLS_H
#define WINDOWBANNER_CWAYLANDTESTPROTOCOLS_H

#include <wayland-client.h>
#include "../vendor/wlr-virtual-pointer-unstable-v1-client-protocol.h"
#include "../vendor/fake-input-client-protocol.h"

/// &zwlr_virtual_pointer_manager_v1_interface.
const struct wl_interface *wb_zwlr_virtual_pointer_manager_v1_interface(void);

/// &org_kde_kwin_fake_input_interface.
const struct wl_interface *wb_org_kde_kwin_fake_input_interface(void);

#endif
