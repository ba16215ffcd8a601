// The accessors and the memfd shim declared in include/CWaylandProtocols.h.
#define _GNU_SOURCE
#include <sys/mman.h>
#include "CWaylandProtocols.h"

const struct wl_interface *wb_wl_compositor_interface(void) { return &wl_compositor_interface; }
const struct wl_interface *wb_wl_shm_interface(void) { return &wl_shm_interface; }
const struct wl_interface *wb_wl_seat_interface(void) { return &wl_seat_interface; }
const struct wl_interface *wb_wl_output_interface(void) { return &wl_output_interface; }
const struct wl_interface *wb_zwlr_layer_shell_v1_interface(void) { return &zwlr_layer_shell_v1_interface; }
const struct wl_interface *wb_wp_viewporter_interface(void) { return &wp_viewporter_interface; }
const struct wl_interface *wb_wp_fractional_scale_manager_v1_interface(void) { return &wp_fractional_scale_manager_v1_interface; }

int wb_memfd_create(const char *name) {
    return memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
}
