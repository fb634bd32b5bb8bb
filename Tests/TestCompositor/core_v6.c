/*
 * wl_compositor and wl_surface described up to version 6, written from wayland.xml.
 * Why: Debian 12's libwayland 1.21 describes wl_compositor only up to version 5, so
 * wl_global_create refuses version 6 and wl_surface has no preferred_buffer_scale or
 * preferred_buffer_transform event to send. libwayland matches interfaces by name, so
 * other protocols' wl_surface arguments (xdg-shell, viewporter...) accept these objects.
 */
#include "compositor.h"

#include <wayland-server-protocol.h>

static const struct wl_interface *types[] = {
	NULL, NULL, NULL, NULL,                // 0-3: integer arguments only
	&tc_wl_surface_interface,              // 4: create_surface
	&wl_region_interface,                  // 5: create_region
	&wl_buffer_interface, NULL, NULL,      // 6-8: attach
	&wl_callback_interface,                // 9: frame
	&wl_region_interface,                  // 10: set_opaque_region
	&wl_region_interface,                  // 11: set_input_region
	&wl_output_interface,                  // 12: enter
	&wl_output_interface,                  // 13: leave
};

static const struct wl_message compositor_requests[] = {
	{ "create_surface", "n", types + 4 },
	{ "create_region", "n", types + 5 },
};

const struct wl_interface tc_wl_compositor_interface = {
	"wl_compositor", 6, 2, compositor_requests, 0, NULL,
};

static const struct wl_message surface_requests[] = {
	{ "destroy", "", types + 0 },
	{ "attach", "?oii", types + 6 },
	{ "damage", "iiii", types + 0 },
	{ "frame", "n", types + 9 },
	{ "set_opaque_region", "?o", types + 10 },
	{ "set_input_region", "?o", types + 11 },
	{ "commit", "", types + 0 },
	{ "set_buffer_transform", "2i", types + 0 },
	{ "set_buffer_scale", "3i", types + 0 },
	{ "damage_buffer", "4iiii", types + 0 },
	{ "offset", "5ii", types + 0 },
};

static const struct wl_message surface_events[] = {
	{ "enter", "o", types + 12 },
	{ "leave", "o", types + 13 },
	{ "preferred_buffer_scale", "6i", types + 0 },
	{ "preferred_buffer_transform", "6u", types + 0 },
};

const struct wl_interface tc_wl_surface_interface = {
	"wl_surface", 6, 11, surface_requests, 4, surface_events,
};
