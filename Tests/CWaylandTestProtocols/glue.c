// The accessors declared in include/CWaylandTestProtocols.h.
#include "CWaylandTestProtocols.h"

const struct wl_interface *wb_zwlr_virtual_pointer_manager_v1_interface(void) {
    return &zwlr_virtual_pointer_manager_v1_interface;
}

const struct wl_interface *wb_org_kde_kwin_fake_input_interface(void) {
    return &org_kde_kwin_fake_input_interface;
}
