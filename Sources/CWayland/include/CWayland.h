// Umbrella header for libwayland-client, wayland-egl and the generated protocol glue.
#ifndef CWAYLAND_H
#define CWAYLAND_H

#include <wayland-client.h>
#include <wayland-egl.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <poll.h>
#include <signal.h>
#include <time.h>

#include "xdg-shell-client-protocol.h"
#include "xdg-output-unstable-v1-client-protocol.h"
#include "presentation-time-client-protocol.h"
#include "viewporter-client-protocol.h"
#include "fractional-scale-v1-client-protocol.h"
#include "fifo-v1-client-protocol.h"
#include "commit-timing-v1-client-protocol.h"
#include "wlr-output-management-unstable-v1-client-protocol.h"
#include "wlr-output-power-management-unstable-v1-client-protocol.h"

// Swift cannot take the address of extern C data (`&wl_output_interface`), so these
// return the interface descriptions that wl_registry_bind needs.
const struct wl_interface *cw_wl_compositor_interface(void);
const struct wl_interface *cw_wl_output_interface(void);
const struct wl_interface *cw_wl_surface_interface(void);
const struct wl_interface *cw_wl_seat_interface(void);
const struct wl_interface *cw_wl_shm_interface(void);
const struct wl_interface *cw_xdg_wm_base_interface(void);
const struct wl_interface *cw_zxdg_output_manager_v1_interface(void);
const struct wl_interface *cw_wp_presentation_interface(void);
const struct wl_interface *cw_wp_viewporter_interface(void);
const struct wl_interface *cw_wp_fractional_scale_manager_v1_interface(void);
const struct wl_interface *cw_wp_fifo_manager_v1_interface(void);
const struct wl_interface *cw_wp_commit_timing_manager_v1_interface(void);
const struct wl_interface *cw_zwlr_output_manager_v1_interface(void);
const struct wl_interface *cw_zwlr_output_power_manager_v1_interface(void);

// wl_surface v6's preferred_buffer_scale and preferred_buffer_transform (libwayland 1.22):
// Swift cannot name members an older header lacks, so C sets them where this header has
// them; with an older header the listener covers wl_surface up to version 5.
void cw_wl_surface_listener_set_preferred_buffer(struct wl_surface_listener *listener,
                                                void (*scale)(void *, struct wl_surface *, int32_t),
                                                void (*transform)(void *, struct wl_surface *, uint32_t));

// memfd_create(2) with MFD_CLOEXEC: glibc declares it only under _GNU_SOURCE, which the
// Glibc module does not see. The memory of a window's wl_shm buffers.
int cw_memfd_create(const char *name);

#endif
