/* xdg-shell: xdg_wm_base (ping), xdg_positioner, xdg_surface, xdg_toplevel, xdg_popup, configures. */
#include "compositor.h"

#include <stdlib.h>
#include <string.h>

#include "protocols/xdg-shell-server-protocol.h"

struct positioner {
	struct tc_server *server;
	int32_t width, height;
};

static void destroy_request(struct wl_client *client, struct wl_resource *resource)
{
	(void)client;
	wl_resource_destroy(resource);
}

static struct tc_xdg_surface *xdg_from(struct wl_resource *resource)
{
	return wl_resource_get_user_data(resource); /* NULL once the xdg_surface is gone */
}

/* ---- configures ---- */

struct tc_output *tc_xdg_surface_target_output(struct tc_xdg_surface *xdg)
{
	struct tc_output *output = NULL;
	if (xdg->fullscreen)
		output = tc_output_find_by_id(xdg->server, xdg->fullscreen_output_id);
	if (!output && xdg->surface)
		output = tc_output_find_by_id(xdg->server, xdg->surface->output_id);
	return output ? output : tc_output_first(xdg->server);
}

bool tc_xdg_surface_faulted(struct tc_xdg_surface *xdg)
{
	const char *name = xdg->server->options.faults_on;
	if (!name[0])
		return true;
	struct tc_output *output = tc_xdg_surface_target_output(xdg);
	return output && strcmp(output->spec.name, name) == 0;
}

/* --no-configure, for this window. */
static bool withholds_configure(struct tc_xdg_surface *xdg)
{
	return xdg->server->options.no_configure && tc_xdg_surface_faulted(xdg);
}

/* --configure WxH, else the logical size of the output the window is for. */
static struct tc_size configure_size(struct tc_xdg_surface *xdg)
{
	if (xdg->server->options.has_configure_size)
		return xdg->server->options.configure_size;
	struct tc_output *output = tc_xdg_surface_target_output(xdg);
	return output ? tc_output_logical_size(output) : (struct tc_size){ 0, 0 };
}

static void add_state(struct wl_array *states, uint32_t state)
{
	uint32_t *slot = wl_array_add(states, sizeof *slot);
	if (slot)
		*slot = state;
}

static void send_configure(struct tc_xdg_surface *xdg, struct tc_size size)
{
	struct tc_server *server = xdg->server;
	if (xdg->toplevel) {
		uint32_t version = (uint32_t)wl_resource_get_version(xdg->toplevel);
		if (!xdg->configure_sent && version >= XDG_TOPLEVEL_CONFIGURE_BOUNDS_SINCE_VERSION)
			xdg_toplevel_send_configure_bounds(xdg->toplevel, size.width, size.height);
		if (!xdg->configure_sent && version >= XDG_TOPLEVEL_WM_CAPABILITIES_SINCE_VERSION) {
			struct wl_array capabilities;
			wl_array_init(&capabilities);
			add_state(&capabilities, XDG_TOPLEVEL_WM_CAPABILITIES_FULLSCREEN);
			add_state(&capabilities, XDG_TOPLEVEL_WM_CAPABILITIES_MAXIMIZE);
			xdg_toplevel_send_wm_capabilities(xdg->toplevel, &capabilities);
			wl_array_release(&capabilities);
		}
		struct wl_array states;
		wl_array_init(&states);
		if (xdg->fullscreen)
			add_state(&states, XDG_TOPLEVEL_STATE_FULLSCREEN);
		if (xdg->maximized)
			add_state(&states, XDG_TOPLEVEL_STATE_MAXIMIZED);
		add_state(&states, XDG_TOPLEVEL_STATE_ACTIVATED);
		xdg_toplevel_send_configure(xdg->toplevel, size.width, size.height, &states);
		wl_array_release(&states);
	} else if (xdg->popup) {
		xdg_popup_send_configure(xdg->popup, 0, 0, xdg->popup_width, xdg->popup_height);
	}
	uint32_t serial = wl_display_next_serial(server->display);
	xdg_surface_send_configure(xdg->resource, serial);
	if (!xdg->has_unacked) {
		xdg->oldest_unacked = serial;
		xdg->has_unacked = true;
	}
	xdg->last_sent = serial;
	xdg->configure_sent = true;
	struct tc_output *output = tc_xdg_surface_target_output(xdg);
	char name[TC_TEXT_MAX * 4];
	tc_log(server, "configure %s %dx%d serial %u", output ? tc_escaped(output->spec.name, name, sizeof name) : "none",
	       size.width, size.height, serial);
	tc_removal_moment(server, TC_MOMENT_CONFIGURE, output);
}

/* A state the client asked for changed: configure again, once the first one went out. */
static void reconfigure(struct tc_xdg_surface *xdg)
{
	if (xdg->configure_sent && !withholds_configure(xdg))
		send_configure(xdg, configure_size(xdg));
}

void tc_xdg_surface_committed(struct tc_xdg_surface *xdg)
{
	if (!xdg->toplevel && !xdg->popup) {
		tc_post_error(xdg->server, xdg->resource, XDG_SURFACE_ERROR_NOT_CONSTRUCTED,
			      "commit on an xdg_surface without a role object");
		return;
	}
	if (!xdg->configure_sent && !withholds_configure(xdg))
		send_configure(xdg, configure_size(xdg));
}

bool tc_xdg_surface_may_attach(struct tc_xdg_surface *xdg, struct wl_resource *buffer)
{
	if (!buffer || xdg->acked)
		return true;
	tc_post_error(xdg->server, xdg->resource, XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER,
		      "buffer committed before the first ack_configure");
	return false;
}

/* --configure-storm N: N configures back to back after the first ack. */
static void storm(struct tc_xdg_surface *xdg)
{
	const struct tc_options *options = &xdg->server->options;
	if (xdg->storm_done || options->storm_count == 0 || withholds_configure(xdg))
		return;
	xdg->storm_done = true;
	tc_log(xdg->server, "configure storm of %u", options->storm_count);
	for (uint32_t i = 0; i < options->storm_count && (xdg->toplevel || xdg->popup); i++) {
		struct tc_size size = options->storm_size_count > 0
					      ? options->storm_sizes[i % (uint32_t)options->storm_size_count]
					      : configure_size(xdg);
		send_configure(xdg, size);
	}
}

/* ---- xdg_toplevel ---- */

static void toplevel_set_parent(struct wl_client *client, struct wl_resource *resource, struct wl_resource *parent)
{
	(void)client, (void)resource, (void)parent;
}

static void copy_text(char *field, const char *text)
{
	snprintf(field, TC_TEXT_MAX, "%s", text);
}

static void toplevel_set_title(struct wl_client *client, struct wl_resource *resource, const char *title)
{
	(void)client;
	struct tc_xdg_surface *xdg = xdg_from(resource);
	if (!xdg)
		return;
	copy_text(xdg->title, title);
	char escaped[TC_TEXT_MAX * 4];
	tc_log(xdg->server, "title %s", tc_escaped(xdg->title, escaped, sizeof escaped));
}

static void toplevel_set_app_id(struct wl_client *client, struct wl_resource *resource, const char *app_id)
{
	(void)client;
	struct tc_xdg_surface *xdg = xdg_from(resource);
	if (!xdg)
		return;
	copy_text(xdg->app_id, app_id);
	char escaped[TC_TEXT_MAX * 4];
	tc_log(xdg->server, "app_id %s", tc_escaped(xdg->app_id, escaped, sizeof escaped));
}

static void toplevel_show_window_menu(struct wl_client *client, struct wl_resource *resource,
				      struct wl_resource *seat, uint32_t serial, int32_t x, int32_t y)
{
	(void)client, (void)resource, (void)seat, (void)serial, (void)x, (void)y;
}

static void toplevel_move(struct wl_client *client, struct wl_resource *resource, struct wl_resource *seat,
			  uint32_t serial)
{
	(void)client, (void)resource, (void)seat, (void)serial;
}

static void toplevel_resize(struct wl_client *client, struct wl_resource *resource, struct wl_resource *seat,
			    uint32_t serial, uint32_t edges)
{
	(void)client, (void)resource, (void)seat, (void)serial, (void)edges;
}

static void toplevel_set_size_limit(struct wl_client *client, struct wl_resource *resource, int32_t width,
				    int32_t height)
{
	(void)client;
	struct tc_xdg_surface *xdg = xdg_from(resource);
	if (xdg && (width < 0 || height < 0))
		tc_post_error(xdg->server, resource, XDG_TOPLEVEL_ERROR_INVALID_SIZE, "size limit %dx%d", width, height);
}

static void toplevel_set_maximized(struct wl_client *client, struct wl_resource *resource)
{
	(void)client;
	struct tc_xdg_surface *xdg = xdg_from(resource);
	if (!xdg)
		return;
	xdg->maximized = true;
	reconfigure(xdg);
}

static void toplevel_unset_maximized(struct wl_client *client, struct wl_resource *resource)
{
	(void)client;
	struct tc_xdg_surface *xdg = xdg_from(resource);
	if (!xdg)
		return;
	xdg->maximized = false;
	reconfigure(xdg);
}

static void toplevel_set_fullscreen(struct wl_client *client, struct wl_resource *resource,
				    struct wl_resource *output_resource)
{
	(void)client;
	struct tc_xdg_surface *xdg = xdg_from(resource);
	if (!xdg)
		return;
	struct tc_output *output = tc_output_from_resource(output_resource);
	xdg->fullscreen = true;
	xdg->fullscreen_output_id = output ? output->id : 0;
	struct tc_output *target = tc_xdg_surface_target_output(xdg);
	char name[TC_TEXT_MAX * 4];
	tc_log(xdg->server, "fullscreen on %s", target ? tc_escaped(target->spec.name, name, sizeof name) : "none");
	if (output && !output->fullscreen_said) {
		output->fullscreen_said = true;
		tc_say(xdg->server, "fullscreen %s %llu", tc_escaped(output->spec.name, name, sizeof name),
		       (unsigned long long)((tc_now_ns() - output->created_ns) / 1000u));
	}
	if (xdg->surface && xdg->surface->mapped && target)
		tc_surface_set_output(xdg->surface, target);
	reconfigure(xdg);
	tc_removal_moment(xdg->server, TC_MOMENT_FULLSCREEN, target);
}

static void toplevel_unset_fullscreen(struct wl_client *client, struct wl_resource *resource)
{
	(void)client;
	struct tc_xdg_surface *xdg = xdg_from(resource);
	if (!xdg)
		return;
	xdg->fullscreen = false;
	reconfigure(xdg);
}

static void toplevel_set_minimized(struct wl_client *client, struct wl_resource *resource)
{
	(void)client, (void)resource;
}

static const struct xdg_toplevel_interface toplevel_requests = {
	.destroy = destroy_request,
	.set_parent = toplevel_set_parent,
	.set_title = toplevel_set_title,
	.set_app_id = toplevel_set_app_id,
	.show_window_menu = toplevel_show_window_menu,
	.move = toplevel_move,
	.resize = toplevel_resize,
	.set_max_size = toplevel_set_size_limit,
	.set_min_size = toplevel_set_size_limit,
	.set_maximized = toplevel_set_maximized,
	.unset_maximized = toplevel_unset_maximized,
	.set_fullscreen = toplevel_set_fullscreen,
	.unset_fullscreen = toplevel_unset_fullscreen,
	.set_minimized = toplevel_set_minimized,
};

static void toplevel_destroyed(struct wl_resource *resource)
{
	struct tc_xdg_surface *xdg = xdg_from(resource);
	if (xdg)
		xdg->toplevel = NULL;
}

/* ---- xdg_popup: enough to be configured and destroyed ---- */

static void popup_grab(struct wl_client *client, struct wl_resource *resource, struct wl_resource *seat,
		       uint32_t serial)
{
	(void)client, (void)resource, (void)seat, (void)serial;
}

static void popup_reposition(struct wl_client *client, struct wl_resource *resource,
			     struct wl_resource *positioner_resource, uint32_t token)
{
	(void)client;
	struct tc_xdg_surface *xdg = xdg_from(resource);
	struct positioner *positioner = wl_resource_get_user_data(positioner_resource);
	if (!xdg)
		return;
	xdg->popup_width = positioner->width;
	xdg->popup_height = positioner->height;
	xdg_popup_send_repositioned(resource, token);
	reconfigure(xdg);
}

static const struct xdg_popup_interface popup_requests = {
	.destroy = destroy_request,
	.grab = popup_grab,
	.reposition = popup_reposition,
};

static void popup_destroyed(struct wl_resource *resource)
{
	struct tc_xdg_surface *xdg = xdg_from(resource);
	if (xdg)
		xdg->popup = NULL;
}

/* ---- xdg_surface ---- */

static void xdg_surface_destroy(struct wl_client *client, struct wl_resource *resource)
{
	(void)client;
	struct tc_xdg_surface *xdg = xdg_from(resource);
	if (xdg->toplevel || xdg->popup) {
		tc_post_error(xdg->server, resource, XDG_SURFACE_ERROR_DEFUNCT_ROLE_OBJECT,
			      "xdg_surface destroyed before its role object");
		return;
	}
	wl_resource_destroy(resource);
}

static bool role_free(struct tc_xdg_surface *xdg, struct wl_resource *resource)
{
	if (xdg->toplevel || xdg->popup) {
		tc_post_error(xdg->server, resource, XDG_SURFACE_ERROR_ALREADY_CONSTRUCTED,
			      "xdg_surface already has a role object");
		return false;
	}
	return true;
}

static void xdg_surface_get_toplevel(struct wl_client *client, struct wl_resource *resource, uint32_t id)
{
	struct tc_xdg_surface *xdg = xdg_from(resource);
	if (!role_free(xdg, resource))
		return;
	struct wl_resource *toplevel = wl_resource_create(client, &xdg_toplevel_interface,
							  wl_resource_get_version(resource), id);
	if (!toplevel) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(toplevel, &toplevel_requests, xdg, toplevel_destroyed);
	xdg->toplevel = toplevel;
	tc_log(xdg->server, "xdg_toplevel#%u created", id);
	tc_removal_moment(xdg->server, TC_MOMENT_TOPLEVEL, NULL);
}

static void xdg_surface_get_popup(struct wl_client *client, struct wl_resource *resource, uint32_t id,
				  struct wl_resource *parent, struct wl_resource *positioner_resource)
{
	(void)parent;
	struct tc_xdg_surface *xdg = xdg_from(resource);
	struct positioner *positioner = wl_resource_get_user_data(positioner_resource);
	if (!role_free(xdg, resource))
		return;
	if (positioner->width <= 0 || positioner->height <= 0) {
		tc_post_error(xdg->server, resource, XDG_WM_BASE_ERROR_INVALID_POSITIONER,
			      "get_popup with a positioner of no size");
		return;
	}
	struct wl_resource *popup = wl_resource_create(client, &xdg_popup_interface, wl_resource_get_version(resource),
						       id);
	if (!popup) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(popup, &popup_requests, xdg, popup_destroyed);
	xdg->popup = popup;
	xdg->popup_width = positioner->width;
	xdg->popup_height = positioner->height;
}

static void xdg_surface_set_window_geometry(struct wl_client *client, struct wl_resource *resource, int32_t x,
					    int32_t y, int32_t width, int32_t height)
{
	(void)client, (void)x, (void)y;
	struct tc_xdg_surface *xdg = xdg_from(resource);
	if (width <= 0 || height <= 0)
		tc_post_error(xdg->server, resource, XDG_SURFACE_ERROR_INVALID_SIZE, "window geometry %dx%d", width,
			      height);
}

static void xdg_surface_ack_configure(struct wl_client *client, struct wl_resource *resource, uint32_t serial)
{
	(void)client;
	struct tc_xdg_surface *xdg = xdg_from(resource);
	if (!xdg->has_unacked || serial < xdg->oldest_unacked || serial > xdg->last_sent) {
		tc_post_error(xdg->server, resource, XDG_SURFACE_ERROR_INVALID_SERIAL,
			      "ack_configure %u: no such configure is waiting", serial);
		return;
	}
	xdg->acked = true;
	if (serial == xdg->last_sent)
		xdg->has_unacked = false;
	else
		xdg->oldest_unacked = serial + 1;
	tc_log(xdg->server, "ack serial %u", serial);
	tc_removal_moment(xdg->server, TC_MOMENT_ACK, tc_xdg_surface_target_output(xdg));
	storm(xdg);
}

static const struct xdg_surface_interface xdg_surface_requests = {
	.destroy = xdg_surface_destroy,
	.get_toplevel = xdg_surface_get_toplevel,
	.get_popup = xdg_surface_get_popup,
	.set_window_geometry = xdg_surface_set_window_geometry,
	.ack_configure = xdg_surface_ack_configure,
};

static void xdg_surface_destroyed(struct wl_resource *resource)
{
	struct tc_xdg_surface *xdg = xdg_from(resource);
	if (xdg->surface)
		xdg->surface->xdg = NULL;
	if (xdg->wm_base)
		wl_list_remove(&xdg->wm_link);
	if (xdg->toplevel)
		wl_resource_set_user_data(xdg->toplevel, NULL);
	if (xdg->popup)
		wl_resource_set_user_data(xdg->popup, NULL);
	free(xdg);
}

/* ---- xdg_positioner ---- */

static void positioner_set_size(struct wl_client *client, struct wl_resource *resource, int32_t width,
				int32_t height)
{
	(void)client;
	struct positioner *positioner = wl_resource_get_user_data(resource);
	if (width <= 0 || height <= 0) {
		tc_post_error(positioner->server, resource, XDG_POSITIONER_ERROR_INVALID_INPUT, "size %dx%d", width,
			      height);
		return;
	}
	positioner->width = width;
	positioner->height = height;
}

static void positioner_set_anchor_rect(struct wl_client *client, struct wl_resource *resource, int32_t x, int32_t y,
				       int32_t width, int32_t height)
{
	(void)client, (void)x, (void)y;
	struct positioner *positioner = wl_resource_get_user_data(resource);
	if (width < 0 || height < 0)
		tc_post_error(positioner->server, resource, XDG_POSITIONER_ERROR_INVALID_INPUT, "anchor rect %dx%d",
			      width, height);
}

static void positioner_set_value(struct wl_client *client, struct wl_resource *resource, uint32_t value)
{
	(void)client, (void)resource, (void)value;
}

static void positioner_set_pair(struct wl_client *client, struct wl_resource *resource, int32_t a, int32_t b)
{
	(void)client, (void)resource, (void)a, (void)b;
}

static void positioner_set_reactive(struct wl_client *client, struct wl_resource *resource)
{
	(void)client, (void)resource;
}

static const struct xdg_positioner_interface positioner_requests = {
	.destroy = destroy_request,
	.set_size = positioner_set_size,
	.set_anchor_rect = positioner_set_anchor_rect,
	.set_anchor = positioner_set_value,
	.set_gravity = positioner_set_value,
	.set_constraint_adjustment = positioner_set_value,
	.set_offset = positioner_set_pair,
	.set_reactive = positioner_set_reactive,
	.set_parent_size = positioner_set_pair,
	.set_parent_configure = positioner_set_value,
};

static void positioner_destroyed(struct wl_resource *resource)
{
	free(wl_resource_get_user_data(resource));
}

/* ---- xdg_wm_base ---- */

static void wm_base_destroy(struct wl_client *client, struct wl_resource *resource)
{
	(void)client;
	struct tc_wm_base *wm_base = wl_resource_get_user_data(resource);
	if (!wl_list_empty(&wm_base->xdg_surfaces)) {
		tc_post_error(wm_base->server, resource, XDG_WM_BASE_ERROR_DEFUNCT_SURFACES,
			      "xdg_wm_base destroyed while xdg_surfaces remain");
		return;
	}
	wl_resource_destroy(resource);
}

static void wm_base_create_positioner(struct wl_client *client, struct wl_resource *resource, uint32_t id)
{
	struct tc_wm_base *wm_base = wl_resource_get_user_data(resource);
	struct positioner *positioner = calloc(1, sizeof *positioner);
	struct wl_resource *created =
		positioner ? wl_resource_create(client, &xdg_positioner_interface, wl_resource_get_version(resource), id)
			   : NULL;
	if (!created) {
		free(positioner);
		wl_client_post_no_memory(client);
		return;
	}
	positioner->server = wm_base->server;
	wl_resource_set_implementation(created, &positioner_requests, positioner, positioner_destroyed);
}

static void wm_base_get_xdg_surface(struct wl_client *client, struct wl_resource *resource, uint32_t id,
				    struct wl_resource *surface_resource)
{
	struct tc_wm_base *wm_base = wl_resource_get_user_data(resource);
	struct tc_surface *surface = tc_surface_from_resource(surface_resource);
	if (surface->xdg) {
		tc_post_error(wm_base->server, resource, XDG_WM_BASE_ERROR_ROLE, "wl_surface#%u already has an xdg_surface",
			      wl_resource_get_id(surface_resource));
		return;
	}
	if (surface->pending_buffer.buffer || surface->mapped) {
		tc_post_error(wm_base->server, resource, XDG_WM_BASE_ERROR_INVALID_SURFACE_STATE,
			      "wl_surface#%u has a buffer", wl_resource_get_id(surface_resource));
		return;
	}
	struct tc_xdg_surface *xdg = calloc(1, sizeof *xdg);
	struct wl_resource *created =
		xdg ? wl_resource_create(client, &xdg_surface_interface, wl_resource_get_version(resource), id) : NULL;
	if (!created) {
		free(xdg);
		wl_client_post_no_memory(client);
		return;
	}
	xdg->server = wm_base->server;
	xdg->resource = created;
	xdg->surface = surface;
	xdg->wm_base = wm_base;
	wl_list_insert(&wm_base->xdg_surfaces, &xdg->wm_link);
	surface->xdg = xdg;
	wl_resource_set_implementation(created, &xdg_surface_requests, xdg, xdg_surface_destroyed);
	tc_log(wm_base->server, "xdg_surface#%u created for wl_surface#%u", id, wl_resource_get_id(surface_resource));
	tc_removal_moment(wm_base->server, TC_MOMENT_XDG_SURFACE, NULL);
}

static void wm_base_pong(struct wl_client *client, struct wl_resource *resource, uint32_t serial)
{
	(void)client;
	struct tc_wm_base *wm_base = wl_resource_get_user_data(resource);
	if (!wm_base->ping_outstanding || serial != wm_base->ping_serial) {
		tc_log(wm_base->server, "pong %u unexpected", serial);
		return;
	}
	wm_base->ping_outstanding = false;
	uint64_t latency_us = (tc_now_ns() - wm_base->ping_sent_ns) / 1000u;
	tc_say(wm_base->server, "pong %u %llu", serial, (unsigned long long)latency_us);
}

static const struct xdg_wm_base_interface wm_base_requests = {
	.destroy = wm_base_destroy,
	.create_positioner = wm_base_create_positioner,
	.get_xdg_surface = wm_base_get_xdg_surface,
	.pong = wm_base_pong,
};

static void wm_base_destroyed(struct wl_resource *resource)
{
	struct tc_wm_base *wm_base = wl_resource_get_user_data(resource);
	struct tc_xdg_surface *xdg, *next;
	wl_list_for_each_safe(xdg, next, &wm_base->xdg_surfaces, wm_link) {
		wl_list_remove(&xdg->wm_link);
		xdg->wm_base = NULL;
	}
	wl_list_remove(&wm_base->link);
	free(wm_base);
}

static void bind_wm_base(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct tc_server *server = data;
	struct tc_wm_base *wm_base = calloc(1, sizeof *wm_base);
	struct wl_resource *resource =
		wm_base ? wl_resource_create(client, &xdg_wm_base_interface, (int)version, id) : NULL;
	if (!resource) {
		free(wm_base);
		wl_client_post_no_memory(client);
		return;
	}
	wm_base->server = server;
	wm_base->resource = resource;
	wl_list_init(&wm_base->xdg_surfaces);
	wl_list_insert(&server->wm_bases, &wm_base->link);
	wl_resource_set_implementation(resource, &wm_base_requests, wm_base, wm_base_destroyed);
	tc_log(server, "bound xdg_wm_base v%u", version);
}

void tc_shell_create(struct tc_server *server)
{
	wl_list_init(&server->wm_bases);
	wl_global_create(server->display, &xdg_wm_base_interface, 5, server, bind_wm_base);
}

/* ---- pings ---- */

void tc_shell_ping_all(struct tc_server *server)
{
	struct tc_wm_base *wm_base;
	wl_list_for_each(wm_base, &server->wm_bases, link) {
		wm_base->ping_serial = wl_display_next_serial(server->display);
		wm_base->ping_sent_ns = tc_now_ns();
		wm_base->ping_outstanding = true;
		xdg_wm_base_send_ping(wm_base->resource, wm_base->ping_serial);
		tc_log(server, "ping %u", wm_base->ping_serial);
	}
}

static int ping_tick(void *data)
{
	struct tc_server *server = data;
	tc_shell_ping_all(server);
	wl_event_source_timer_update(server->ping_timer, (int)server->options.ping_every_ms);
	return 0;
}

void tc_shell_start_ping_timer(struct tc_server *server)
{
	if (server->options.ping_every_ms <= 0)
		return;
	server->ping_timer = wl_event_loop_add_timer(server->loop, ping_tick, server);
	if (server->ping_timer)
		wl_event_source_timer_update(server->ping_timer, (int)server->options.ping_every_ms);
}
