/* wp_viewporter: viewports are accepted, checked and stored; screenshots stay the raw buffer. */
#include "compositor.h"

#include <stdlib.h>

#include "protocols/viewporter-server-protocol.h"

struct viewport {
	struct tc_server *server;
	struct tc_surface *surface; /* NULL once the wl_surface is gone */
	wl_fixed_t source[4], pending_source[4];
	int32_t destination[2], pending_destination[2];
};

static bool surface_alive(struct viewport *viewport, struct wl_resource *resource)
{
	if (viewport->surface)
		return true;
	tc_post_error(viewport->server, resource, WP_VIEWPORT_ERROR_NO_SURFACE, "the wl_surface was destroyed");
	return false;
}

static void viewport_destroy(struct wl_client *client, struct wl_resource *resource)
{
	(void)client;
	wl_resource_destroy(resource);
}

static void viewport_set_source(struct wl_client *client, struct wl_resource *resource, wl_fixed_t x, wl_fixed_t y,
				wl_fixed_t width, wl_fixed_t height)
{
	(void)client;
	struct viewport *viewport = wl_resource_get_user_data(resource);
	if (!surface_alive(viewport, resource))
		return;
	wl_fixed_t unset = wl_fixed_from_int(-1);
	bool unsets = x == unset && y == unset && width == unset && height == unset;
	if (!unsets && (x < 0 || y < 0 || width <= 0 || height <= 0)) {
		tc_post_error(viewport->server, resource, WP_VIEWPORT_ERROR_BAD_VALUE, "source %f,%f %fx%f",
			      wl_fixed_to_double(x), wl_fixed_to_double(y), wl_fixed_to_double(width),
			      wl_fixed_to_double(height));
		return;
	}
	viewport->pending_source[0] = x;
	viewport->pending_source[1] = y;
	viewport->pending_source[2] = width;
	viewport->pending_source[3] = height;
}

static void viewport_set_destination(struct wl_client *client, struct wl_resource *resource, int32_t width,
				     int32_t height)
{
	(void)client;
	struct viewport *viewport = wl_resource_get_user_data(resource);
	if (!surface_alive(viewport, resource))
		return;
	bool unsets = width == -1 && height == -1;
	if (!unsets && (width <= 0 || height <= 0)) {
		tc_post_error(viewport->server, resource, WP_VIEWPORT_ERROR_BAD_VALUE, "destination %dx%d", width, height);
		return;
	}
	viewport->pending_destination[0] = width;
	viewport->pending_destination[1] = height;
}

static const struct wp_viewport_interface viewport_requests = {
	.destroy = viewport_destroy,
	.set_source = viewport_set_source,
	.set_destination = viewport_set_destination,
};

void tc_viewport_commit(struct wl_resource *resource)
{
	struct viewport *viewport = wl_resource_get_user_data(resource);
	bool changed = viewport->destination[0] != viewport->pending_destination[0] ||
		       viewport->destination[1] != viewport->pending_destination[1];
	for (int i = 0; i < 4; i++) {
		changed = changed || viewport->source[i] != viewport->pending_source[i];
		viewport->source[i] = viewport->pending_source[i];
	}
	viewport->destination[0] = viewport->pending_destination[0];
	viewport->destination[1] = viewport->pending_destination[1];
	if (changed)
		tc_log(viewport->server, "viewport surface#%u source %g,%g %gx%g destination %dx%d",
		       wl_resource_get_id(viewport->surface->resource), wl_fixed_to_double(viewport->source[0]),
		       wl_fixed_to_double(viewport->source[1]), wl_fixed_to_double(viewport->source[2]),
		       wl_fixed_to_double(viewport->source[3]), viewport->destination[0], viewport->destination[1]);
}

void tc_viewport_surface_destroyed(struct wl_resource *resource)
{
	struct viewport *viewport = wl_resource_get_user_data(resource);
	viewport->surface = NULL;
}

static void viewport_destroyed(struct wl_resource *resource)
{
	struct viewport *viewport = wl_resource_get_user_data(resource);
	if (viewport->surface)
		viewport->surface->viewport = NULL;
	free(viewport);
}

static void viewporter_destroy(struct wl_client *client, struct wl_resource *resource)
{
	(void)client;
	wl_resource_destroy(resource);
}

static void viewporter_get_viewport(struct wl_client *client, struct wl_resource *resource, uint32_t id,
				    struct wl_resource *surface_resource)
{
	struct tc_server *server = wl_resource_get_user_data(resource);
	struct tc_surface *surface = tc_surface_from_resource(surface_resource);
	if (surface->viewport) {
		tc_post_error(server, resource, WP_VIEWPORTER_ERROR_VIEWPORT_EXISTS, "wl_surface#%u already has a viewport",
			      wl_resource_get_id(surface_resource));
		return;
	}
	struct viewport *viewport = calloc(1, sizeof *viewport);
	struct wl_resource *created =
		viewport ? wl_resource_create(client, &wp_viewport_interface, wl_resource_get_version(resource), id) : NULL;
	if (!created) {
		free(viewport);
		wl_client_post_no_memory(client);
		return;
	}
	viewport->server = server;
	viewport->surface = surface;
	for (int i = 0; i < 4; i++)
		viewport->source[i] = viewport->pending_source[i] = wl_fixed_from_int(-1);
	viewport->destination[0] = viewport->destination[1] = -1;
	viewport->pending_destination[0] = viewport->pending_destination[1] = -1;
	surface->viewport = created;
	wl_resource_set_implementation(created, &viewport_requests, viewport, viewport_destroyed);
}

static const struct wp_viewporter_interface viewporter_requests = {
	.destroy = viewporter_destroy,
	.get_viewport = viewporter_get_viewport,
};

static void bind_viewporter(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct tc_server *server = data;
	struct wl_resource *resource = wl_resource_create(client, &wp_viewporter_interface, (int)version, id);
	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &viewporter_requests, server, NULL);
	tc_log(server, "bound wp_viewporter v%u", version);
}

void tc_viewporter_create(struct tc_server *server)
{
	wl_global_create(server->display, &wp_viewporter_interface, 1, server, bind_viewporter);
}
