#define _GNU_SOURCE
#include <sys/mman.h>

// Interface getters: Swift cannot take the address of extern C data (see CWayland.h).
#include "CWayland.h"

const struct wl_interface *cw_wl_compositor_interface(void) { return &wl_compositor_interface; }
const struct wl_interface *cw_wl_output_interface(void) { return &wl_output_interface; }
const struct wl_interface *cw_wl_surface_interface(void) { return &wl_surface_interface; }
const struct wl_interface *cw_wl_seat_interface(void) { return &wl_seat_interface; }
const struct wl_interface *cw_wl_shm_interface(void) { return &wl_shm_interface; }
const struct wl_interface *cw_xdg_wm_base_interface(void) { return &xdg_wm_base_interface; }
const struct wl_interface *cw_zxdg_output_manager_v1_interface(void) { return &zxdg_output_manager_v1_interface; }
const struct wl_interface *cw_wp_presentation_interface(void) { return &wp_presentation_interface; }
const struct wl_interface *cw_wp_viewporter_interface(void) { return &wp_viewporter_interface; }
const struct wl_interface *cw_wp_fractional_scale_manager_v1_interface(void) { return &wp_fractional_scale_manager_v1_interface; }
const struct wl_interface *cw_wp_fifo_manager_v1_interface(void) { return &wp_fifo_manager_v1_interface; }
const struct wl_interface *cw_wp_commit_timing_manager_v1_interface(void) { return &wp_commit_timing_manager_v1_interface; }
const struct wl_interface *cw_zwlr_output_manager_v1_interface(void) { return &zwlr_output_manager_v1_interface; }
const struct wl_interface *cw_zwlr_output_power_manager_v1_interface(void) { return &zwlr_output_power_manager_v1_interface; }

// wl_surface v6 events, set only where the header has them (see CWayland.h).
void cw_wl_surface_listener_set_preferred_buffer(struct wl_surface_listener *listener,
                                                void (*scale)(void *, struct wl_surface *, int32_t),
                                                void (*transform)(void *, struct wl_surface *, uint32_t)) {
#ifdef WL_SURFACE_PREFERRED_BUFFER_SCALE_SINCE_VERSION
    listener->preferred_buffer_scale = scale;
    listener->preferred_buffer_transform = transform;
#else
    (void)listener; (void)scale; (void)transform;
#endif
}

// memfd_create is declared only under _GNU_SOURCE (see CWayland.h).
int cw_memfd_create(const char *name) { return memfd_create(name, MFD_CLOEXEC); }
