/*
 * wl_compositor, wl_surface and wl_region: double-buffered state, frame callbacks, buffer
 * release, and a copy of every committed wl_shm buffer for screenshots.
 */
#include "compositor.h"

#include <stdlib.h>
#include <string.h>
#include <wayland-server-protocol.h>

/* The request table of tc_wl_surface_interface (core_v6.c), in its order. */
struct surface_requests {
	void (*destroy)(struct wl_client *, struct wl_resource *);
	void (*attach)(struct wl_client *, struct wl_resource *, struct wl_resource *, int32_t, int32_t);
	void (*damage)(struct wl_client *, struct wl_resource *, int32_t, int32_t, int32_t, int32_t);
	void (*frame)(struct wl_client *, struct wl_resource *, uint32_t);
	void (*set_opaque_region)(struct wl_client *, struct wl_resource *, struct wl_resource *);
	void (*set_input_region)(struct wl_client *, struct wl_resource *, struct wl_resource *);
	void (*commit)(struct wl_client *, struct wl_resource *);
	void (*set_buffer_transform)(struct wl_client *, struct wl_resource *, int32_t);
	void (*set_buffer_scale)(struct wl_client *, struct wl_resource *, int32_t);
	void (*damage_buffer)(struct wl_client *, struct wl_resource *, int32_t, int32_t, int32_t, int32_t);
	void (*offset)(struct wl_client *, struct wl_resource *, int32_t, int32_t);
};

struct compositor_requests {
	void (*create_surface)(struct wl_client *, struct wl_resource *, uint32_t);
	void (*create_region)(struct wl_client *, struct wl_resource *, uint32_t);
};

/* The largest buffer copied for screenshots (1 GiB): beyond it, no copy. */
static const size_t max_copy_bytes = (size_t)1 << 30;

/* ---- buffer references: forget a buffer when the client destroys it ---- */

static void buffer_ref_destroyed(struct wl_listener *listener, void *data)
{
	(void)data;
	struct tc_buffer_ref *ref = wl_container_of(listener, ref, destroy);
	ref->buffer = NULL;
	wl_list_remove(&listener->link);
	wl_list_init(&listener->link);
}

static void buffer_ref_init(struct tc_buffer_ref *ref)
{
	ref->buffer = NULL;
	ref->destroy.notify = buffer_ref_destroyed;
	wl_list_init(&ref->destroy.link);
}

static void buffer_ref_set(struct tc_buffer_ref *ref, struct wl_resource *buffer)
{
	if (ref->buffer == buffer)
		return;
	wl_list_remove(&ref->destroy.link);
	wl_list_init(&ref->destroy.link);
	ref->buffer = buffer;
	if (buffer)
		wl_resource_add_destroy_listener(buffer, &ref->destroy);
}

/* --release never (with --faults-on, only for that output's windows). */
static bool withholds_release(struct tc_surface *surface)
{
	const struct tc_options *options = &surface->server->options;
	if (!options->release_never)
		return false;
	if (!options->faults_on[0])
		return true;
	return surface->xdg && tc_xdg_surface_faulted(surface->xdg);
}

static void release_buffer(struct tc_surface *surface, struct wl_resource *buffer)
{
	if (buffer && !withholds_release(surface))
		wl_buffer_send_release(buffer);
}

/* ---- frame callbacks ---- */

static void callback_destroyed(struct wl_resource *resource)
{
	wl_list_remove(wl_resource_get_link(resource));
}

static bool send_frames(struct wl_list *callbacks, uint32_t time_ms)
{
	bool sent = false;
	struct wl_resource *callback, *next;
	wl_resource_for_each_safe(callback, next, callbacks) {
		wl_callback_send_done(callback, time_ms);
		wl_resource_destroy(callback);
		sent = true;
	}
	return sent;
}

/* --frame-callbacks odd-times: 0, UINT32_MAX, then times that go backwards. */
static uint32_t odd_time(struct tc_surface *surface, uint64_t now_ns)
{
	uint32_t index = surface->odd_time_index++;
	if (index == 0)
		return 0;
	if (index == 1)
		return UINT32_MAX;
	if (index == 2)
		surface->odd_start_ms = (uint32_t)(now_ns / 1000000u);
	return surface->odd_start_ms - (index - 2) * 16u;
}

/* ---- the output's repaint ---- */

void tc_surfaces_tick(struct tc_server *server, struct tc_output *output, uint64_t now_ns)
{
	struct tc_output *first = tc_output_first(server);
	struct tc_surface *surface, *next;
	wl_list_for_each_safe(surface, next, &server->surfaces, link) {
		/* A surface not yet on any output is repainted with the first one. */
		bool here = surface->output_id == output->id ||
			    (surface->output_id == 0 && !surface->orphaned && output == first);
		if (!here)
			continue;
		if (surface->has_queued_content) {
			struct wl_resource *previous = surface->shown_buffer.buffer;
			if (previous && previous != surface->queued_buffer.buffer)
				release_buffer(surface, previous);
			buffer_ref_set(&surface->shown_buffer, surface->queued_buffer.buffer);
			buffer_ref_set(&surface->queued_buffer, NULL);
			surface->has_queued_content = false;
		}
		bool sent = false;
		if (server->options.frames == TC_FRAMES_NORMAL)
			sent = send_frames(&surface->queued_frames, (uint32_t)(now_ns / 1000000u));
		else if (server->options.frames == TC_FRAMES_ODD_TIMES && !wl_list_empty(&surface->queued_frames))
			sent = send_frames(&surface->queued_frames, odd_time(surface, now_ns));
		if (sent && !surface->frame_moment_seen && surface->mapped) {
			surface->frame_moment_seen = true;
			tc_removal_moment(server, TC_MOMENT_FRAME, output);
		}
		if (!wl_list_empty(&surface->queued_feedbacks))
			tc_presentation_present(server, &surface->queued_feedbacks, output, now_ns);
	}
}

/* ---- outputs ---- */

static void send_enter(struct wl_resource *output_resource, void *data)
{
	wl_surface_send_enter(data, output_resource);
}

static void send_leave(struct wl_resource *output_resource, void *data)
{
	wl_surface_send_leave(data, output_resource);
}

static void send_preferred(struct tc_surface *surface, struct tc_output *output)
{
	const struct tc_options *options = &surface->server->options;
	if (wl_resource_get_version(surface->resource) < 6)
		return;
	if (options->has_preferred_buffer_scale || output)
		wl_resource_post_event(surface->resource, TC_WL_SURFACE_PREFERRED_BUFFER_SCALE,
				       options->has_preferred_buffer_scale ? options->preferred_buffer_scale
									   : output->spec.scale);
	if (options->has_preferred_transform || output)
		wl_resource_post_event(surface->resource, TC_WL_SURFACE_PREFERRED_BUFFER_TRANSFORM,
				       options->has_preferred_transform ? options->preferred_transform
									: (uint32_t)output->spec.transform);
}

void tc_surface_set_output(struct tc_surface *surface, struct tc_output *output)
{
	if (output && surface->output_id == output->id)
		return;
	struct tc_server *server = surface->server;
	struct wl_client *client = wl_resource_get_client(surface->resource);
	struct tc_output *old = tc_output_find_by_id(server, surface->output_id);
	if (old)
		tc_output_for_each_client_resource(old, client, send_leave, surface->resource);
	surface->output_id = output ? output->id : 0;
	surface->orphaned = false;
	if (!output)
		return;
	tc_output_for_each_client_resource(output, client, send_enter, surface->resource);
	send_preferred(surface, output);
	if (surface->fractional_scale)
		tc_fractional_scale_send(surface->fractional_scale, output);
	char name[TC_TEXT_MAX * 4];
	tc_log(server, "surface#%u entered %s", wl_resource_get_id(surface->resource),
	       tc_escaped(output->spec.name, name, sizeof name));
}

void tc_surfaces_output_removed(struct tc_server *server, struct tc_output *output)
{
	struct tc_surface *surface;
	wl_list_for_each(surface, &server->surfaces, link) {
		if (surface->output_id != output->id)
			continue;
		tc_output_for_each_client_resource(output, wl_resource_get_client(surface->resource), send_leave,
						   surface->resource);
		surface->output_id = 0;
		surface->orphaned = true;
	}
}

struct tc_surface *tc_surface_on_output(struct tc_server *server, struct tc_output *output)
{
	struct tc_surface *surface;
	wl_list_for_each(surface, &server->surfaces, link)
		if (surface->output_id == output->id && surface->mapped)
			return surface;
	return NULL;
}

struct tc_surface *tc_surface_from_resource(struct wl_resource *resource)
{
	return resource ? wl_resource_get_user_data(resource) : NULL;
}

/* ---- wl_surface requests ---- */

static void copy_pixels(struct tc_surface *surface, struct wl_resource *buffer)
{
	struct wl_shm_buffer *shm = wl_shm_buffer_get(buffer);
	surface->has_pixels = false;
	if (!shm)
		return;
	int32_t width = wl_shm_buffer_get_width(shm), height = wl_shm_buffer_get_height(shm);
	int32_t stride = wl_shm_buffer_get_stride(shm);
	if (width <= 0 || height <= 0 || stride <= 0)
		return;
	size_t size = (size_t)stride * (size_t)height;
	if (size > max_copy_bytes)
		return;
	if (size > surface->pixels_capacity) {
		uint8_t *grown = realloc(surface->pixels, size);
		if (!grown)
			return;
		surface->pixels = grown;
		surface->pixels_capacity = size;
	}
	wl_shm_buffer_begin_access(shm);
	memcpy(surface->pixels, wl_shm_buffer_get_data(shm), size);
	wl_shm_buffer_end_access(shm);
	surface->pixel_width = width;
	surface->pixel_height = height;
	surface->pixel_stride = stride;
	surface->pixel_format = wl_shm_buffer_get_format(shm);
	surface->has_pixels = true;
}

static void surface_destroy(struct wl_client *client, struct wl_resource *resource)
{
	(void)client;
	wl_resource_destroy(resource);
}

static void surface_attach(struct wl_client *client, struct wl_resource *resource, struct wl_resource *buffer,
			   int32_t x, int32_t y)
{
	(void)client;
	struct tc_surface *surface = tc_surface_from_resource(resource);
	if (wl_resource_get_version(resource) >= 5 && (x != 0 || y != 0)) {
		tc_post_error(surface->server, resource, WL_SURFACE_ERROR_INVALID_OFFSET,
			      "attach with offset %d,%d on wl_surface version 5 or later", x, y);
		return;
	}
	buffer_ref_set(&surface->pending_buffer, buffer);
	surface->pending_attached = true;
}

static void surface_damage(struct wl_client *client, struct wl_resource *resource, int32_t x, int32_t y,
			   int32_t width, int32_t height)
{
	(void)client, (void)resource, (void)x, (void)y, (void)width, (void)height;
}

static void surface_frame(struct wl_client *client, struct wl_resource *resource, uint32_t id)
{
	struct tc_surface *surface = tc_surface_from_resource(resource);
	struct wl_resource *callback = wl_resource_create(client, &wl_callback_interface, 1, id);
	if (!callback) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(callback, NULL, NULL, callback_destroyed);
	wl_list_insert(surface->pending_frames.prev, wl_resource_get_link(callback));
}

static void surface_set_region(struct wl_client *client, struct wl_resource *resource, struct wl_resource *region)
{
	(void)client, (void)resource, (void)region;
}

static void log_commit(struct tc_surface *surface)
{
	int32_t width = surface->has_pixels ? surface->pixel_width : -1;
	int32_t height = surface->has_pixels ? surface->pixel_height : -1;
	if (width == surface->logged_width && height == surface->logged_height && surface->scale == surface->logged_scale)
		return;
	surface->logged_width = width;
	surface->logged_height = height;
	surface->logged_scale = surface->scale;
	struct tc_output *output = tc_output_find_by_id(surface->server, surface->output_id);
	char name[TC_TEXT_MAX * 4];
	tc_log(surface->server, "commit %s buffer %dx%d scale %d surface#%u",
	       output ? tc_escaped(output->spec.name, name, sizeof name) : "none", width, height, surface->scale,
	       wl_resource_get_id(surface->resource));
}

static void surface_commit(struct wl_client *client, struct wl_resource *resource)
{
	(void)client;
	struct tc_surface *surface = tc_surface_from_resource(resource);
	struct tc_server *server = surface->server;
	struct wl_resource *buffer = surface->pending_buffer.buffer;
	bool attached = surface->pending_attached;
	if (surface->xdg && attached && !tc_xdg_surface_may_attach(surface->xdg, buffer))
		return;

	surface->scale = surface->pending_scale;
	surface->transform = surface->pending_transform;
	if (attached) {
		surface->pending_attached = false;
		struct wl_resource *replaced = surface->queued_buffer.buffer;
		/* Content replaced before it reached the screen: its buffer is free again. */
		if (replaced && replaced != buffer && replaced != surface->shown_buffer.buffer)
			release_buffer(surface, replaced);
		if (buffer)
			copy_pixels(surface, buffer);
		buffer_ref_set(&surface->queued_buffer, buffer);
		buffer_ref_set(&surface->pending_buffer, NULL);
		surface->has_queued_content = true;
		if (!wl_list_empty(&surface->queued_feedbacks))
			tc_presentation_discard(server, &surface->queued_feedbacks);
	}
	wl_list_insert_list(surface->queued_feedbacks.prev, &surface->pending_feedbacks);
	wl_list_init(&surface->pending_feedbacks);
	if (server->options.frames == TC_FRAMES_IMMEDIATE) {
		send_frames(&surface->pending_frames, (uint32_t)(tc_now_ns() / 1000000u));
	} else {
		wl_list_insert_list(surface->queued_frames.prev, &surface->pending_frames);
		wl_list_init(&surface->pending_frames);
	}
	if (surface->viewport)
		tc_viewport_commit(surface->viewport);

	if (surface->xdg)
		tc_xdg_surface_committed(surface->xdg);
	if (attached && !buffer)
		surface->mapped = false;
	if (attached && buffer && !surface->mapped) {
		surface->mapped = true;
		struct tc_output *target =
			surface->xdg ? tc_xdg_surface_target_output(surface->xdg) : tc_output_first(server);
		if (target)
			tc_surface_set_output(surface, target);
		log_commit(surface);
		tc_removal_moment(server, TC_MOMENT_FIRST_COMMIT, target);
		return;
	}
	if (attached && buffer)
		log_commit(surface);
}

static void surface_set_buffer_transform(struct wl_client *client, struct wl_resource *resource, int32_t transform)
{
	(void)client;
	struct tc_surface *surface = tc_surface_from_resource(resource);
	if (transform < 0 || transform > 7) {
		tc_post_error(surface->server, resource, WL_SURFACE_ERROR_INVALID_TRANSFORM, "buffer transform %d",
			      transform);
		return;
	}
	surface->pending_transform = transform;
}

static void surface_set_buffer_scale(struct wl_client *client, struct wl_resource *resource, int32_t scale)
{
	(void)client;
	struct tc_surface *surface = tc_surface_from_resource(resource);
	if (scale < 1) {
		tc_post_error(surface->server, resource, WL_SURFACE_ERROR_INVALID_SCALE, "buffer scale %d", scale);
		return;
	}
	surface->pending_scale = scale;
}

static void surface_offset(struct wl_client *client, struct wl_resource *resource, int32_t x, int32_t y)
{
	(void)client, (void)resource, (void)x, (void)y;
}

static const struct surface_requests surface_requests = {
	.destroy = surface_destroy,
	.attach = surface_attach,
	.damage = surface_damage,
	.frame = surface_frame,
	.set_opaque_region = surface_set_region,
	.set_input_region = surface_set_region,
	.commit = surface_commit,
	.set_buffer_transform = surface_set_buffer_transform,
	.set_buffer_scale = surface_set_buffer_scale,
	.damage_buffer = surface_damage,
	.offset = surface_offset,
};

static void surface_destroyed(struct wl_resource *resource)
{
	struct tc_surface *surface = tc_surface_from_resource(resource);
	struct tc_server *server = surface->server;
	wl_list_remove(&surface->link);
	buffer_ref_set(&surface->pending_buffer, NULL);
	buffer_ref_set(&surface->queued_buffer, NULL);
	buffer_ref_set(&surface->shown_buffer, NULL);
	/* Callbacks are the client's objects: they outlive the surface, never done. */
	tc_resource_list_detach(&surface->pending_frames);
	tc_resource_list_detach(&surface->queued_frames);
	tc_presentation_orphan(server, &surface->pending_feedbacks);
	tc_presentation_orphan(server, &surface->queued_feedbacks);
	if (surface->xdg)
		surface->xdg->surface = NULL;
	if (surface->viewport)
		tc_viewport_surface_destroyed(surface->viewport);
	if (surface->fractional_scale)
		tc_fractional_scale_surface_destroyed(surface->fractional_scale);
	tc_seat_surface_destroyed(server, surface);
	free(surface->pixels);
	free(surface);
}

/* ---- wl_region: accepted, ignored ---- */

static void region_destroy(struct wl_client *client, struct wl_resource *resource)
{
	(void)client;
	wl_resource_destroy(resource);
}

static void region_rectangle(struct wl_client *client, struct wl_resource *resource, int32_t x, int32_t y,
			     int32_t width, int32_t height)
{
	(void)client, (void)resource, (void)x, (void)y, (void)width, (void)height;
}

static const struct wl_region_interface region_requests = {
	.destroy = region_destroy,
	.add = region_rectangle,
	.subtract = region_rectangle,
};

/* ---- wl_compositor ---- */

static void compositor_create_surface(struct wl_client *client, struct wl_resource *compositor, uint32_t id)
{
	struct tc_server *server = wl_resource_get_user_data(compositor);
	struct tc_surface *surface = calloc(1, sizeof *surface);
	struct wl_resource *resource =
		surface ? wl_resource_create(client, &tc_wl_surface_interface, wl_resource_get_version(compositor), id)
			: NULL;
	if (!resource) {
		free(surface);
		wl_client_post_no_memory(client);
		return;
	}
	static uint64_t creations;
	surface->server = server;
	surface->resource = resource;
	surface->creation = ++creations;
	surface->scale = surface->pending_scale = 1;
	surface->logged_width = surface->logged_height = -2;
	buffer_ref_init(&surface->pending_buffer);
	buffer_ref_init(&surface->queued_buffer);
	buffer_ref_init(&surface->shown_buffer);
	wl_list_init(&surface->pending_frames);
	wl_list_init(&surface->pending_feedbacks);
	wl_list_init(&surface->queued_frames);
	wl_list_init(&surface->queued_feedbacks);
	wl_list_insert(&server->surfaces, &surface->link);
	wl_resource_set_implementation(resource, &surface_requests, surface, surface_destroyed);
	send_preferred(surface, NULL);
}

static void compositor_create_region(struct wl_client *client, struct wl_resource *compositor, uint32_t id)
{
	struct wl_resource *region = wl_resource_create(client, &wl_region_interface, wl_resource_get_version(compositor),
							id);
	if (!region) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(region, &region_requests, NULL, NULL);
}

static const struct compositor_requests compositor_requests = {
	.create_surface = compositor_create_surface,
	.create_region = compositor_create_region,
};

static void bind_compositor(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct tc_server *server = data;
	struct wl_resource *resource = wl_resource_create(client, &tc_wl_compositor_interface, (int)version, id);
	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &compositor_requests, server, NULL);
	tc_log(server, "bound wl_compositor v%u", version);
}

void tc_compositor_create(struct tc_server *server)
{
	wl_global_create(server->display, &tc_wl_compositor_interface, (int)server->options.compositor_version, server,
			 bind_compositor);
}
