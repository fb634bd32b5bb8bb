/* wp_fractional_scale_manager_v1: a preferred scale per surface, from --fractional-scale or the output. */
#include "compositor.h"

#include "protocols/fractional-scale-v1-server-protocol.h"

void tc_fractional_scale_send(struct wl_resource *resource, struct tc_output *output)
{
	struct tc_surface *surface = wl_resource_get_user_data(resource);
	if (!surface)
		return;
	const struct tc_options *options = &surface->server->options;
	uint32_t scale = options->has_fractional_scale ? options->fractional_scale
			 : output && output->spec.scale > 0 ? (uint32_t)((int64_t)output->spec.scale * 120)
							    : 120;
	wp_fractional_scale_v1_send_preferred_scale(resource, scale);
	tc_log(surface->server, "preferred_scale %u surface#%u", scale, wl_resource_get_id(surface->resource));
}

void tc_fractional_scale_surface_destroyed(struct wl_resource *resource)
{
	wl_resource_set_user_data(resource, NULL);
}

static void fractional_scale_destroy(struct wl_client *client, struct wl_resource *resource)
{
	(void)client;
	wl_resource_destroy(resource);
}

static const struct wp_fractional_scale_v1_interface fractional_scale_requests = {
	.destroy = fractional_scale_destroy,
};

static void fractional_scale_destroyed(struct wl_resource *resource)
{
	struct tc_surface *surface = wl_resource_get_user_data(resource);
	if (surface)
		surface->fractional_scale = NULL;
}

static void manager_destroy(struct wl_client *client, struct wl_resource *resource)
{
	(void)client;
	wl_resource_destroy(resource);
}

static void manager_get_fractional_scale(struct wl_client *client, struct wl_resource *resource, uint32_t id,
					 struct wl_resource *surface_resource)
{
	struct tc_server *server = wl_resource_get_user_data(resource);
	struct tc_surface *surface = tc_surface_from_resource(surface_resource);
	if (surface->fractional_scale) {
		tc_post_error(server, resource, WP_FRACTIONAL_SCALE_MANAGER_V1_ERROR_FRACTIONAL_SCALE_EXISTS,
			      "wl_surface#%u already has a wp_fractional_scale_v1", wl_resource_get_id(surface_resource));
		return;
	}
	struct wl_resource *created = wl_resource_create(client, &wp_fractional_scale_v1_interface,
							 wl_resource_get_version(resource), id);
	if (!created) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(created, &fractional_scale_requests, surface, fractional_scale_destroyed);
	surface->fractional_scale = created;
	struct tc_output *output = tc_output_find_by_id(server, surface->output_id);
	if (output || server->options.has_fractional_scale)
		tc_fractional_scale_send(created, output);
}

static const struct wp_fractional_scale_manager_v1_interface manager_requests = {
	.destroy = manager_destroy,
	.get_fractional_scale = manager_get_fractional_scale,
};

static void bind_manager(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct tc_server *server = data;
	struct wl_resource *resource =
		wl_resource_create(client, &wp_fractional_scale_manager_v1_interface, (int)version, id);
	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &manager_requests, server, NULL);
	tc_log(server, "bound wp_fractional_scale_manager_v1 v%u", version);
}

void tc_fractional_scale_manager_create(struct tc_server *server)
{
	wl_global_create(server->display, &wp_fractional_scale_manager_v1_interface, 1, server, bind_manager);
}
