/* wl_output globals, their xdg-output descriptions, and each output's repaint tick. */
#include "compositor.h"

#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <unistd.h>
#include <wayland-server-protocol.h>

#include "protocols/xdg-output-unstable-v1-server-protocol.h"

void tc_outputs_init(struct tc_server *server)
{
	wl_list_init(&server->outputs);
	wl_list_init(&server->removed_outputs);
}

struct tc_size tc_output_logical_size(const struct tc_output *output)
{
	return (struct tc_size){ output->spec.logical_width, output->spec.logical_height };
}

/* Fills what the spec left unset: placement right of the other outputs, sizes from the mode. */
static void complete_spec(struct tc_server *server, struct tc_output_spec *spec)
{
	if (!spec->has_x) {
		int64_t right = 0;
		struct tc_output *other;
		wl_list_for_each(other, &server->outputs, link) {
			int64_t edge = (int64_t)other->spec.logical_x + other->spec.logical_width;
			if (edge > right)
				right = edge;
		}
		spec->x = (int32_t)(uint32_t)right;
		spec->has_x = true;
	}
	if (!spec->has_y) {
		spec->y = 0;
		spec->has_y = true;
	}
	if (!spec->has_physical_width) {
		spec->physical_width = (int32_t)((int64_t)spec->mode.width * 254 / 960);
		spec->has_physical_width = true;
	}
	if (!spec->has_physical_height) {
		spec->physical_height = (int32_t)((int64_t)spec->mode.height * 254 / 960);
		spec->has_physical_height = true;
	}
	if (!spec->has_logical_x) {
		spec->logical_x = spec->x;
		spec->has_logical_x = true;
	}
	if (!spec->has_logical_y) {
		spec->logical_y = spec->y;
		spec->has_logical_y = true;
	}
	/* As compositors derive it: the mode, turned by an odd transform, over the scale. */
	int64_t width = spec->mode.width, height = spec->mode.height;
	if (spec->transform >= 0 && spec->transform <= 7 && (spec->transform & 1)) {
		int64_t swap = width;
		width = height;
		height = swap;
	}
	int64_t scale = spec->scale > 0 ? spec->scale : 1;
	if (!spec->has_logical_width) {
		spec->logical_width = (int32_t)(width / scale);
		spec->has_logical_width = true;
	}
	if (!spec->has_logical_height) {
		spec->logical_height = (int32_t)(height / scale);
		spec->has_logical_height = true;
	}
	if (!spec->has_description) {
		snprintf(spec->description, sizeof spec->description, "glout test output %.200s", spec->name);
		spec->has_description = true;
	}
}

/* The repaint period: the mode's refresh clamped to 1..1000 Hz, 60 Hz where it is <= 0. */
static uint64_t repaint_period_ns(int32_t refresh_mhz)
{
	int64_t mhz = refresh_mhz <= 0 ? 60000 : refresh_mhz;
	if (mhz < 1000)
		mhz = 1000;
	if (mhz > 1000000)
		mhz = 1000000;
	return (uint64_t)(1000000000000LL / mhz);
}

static void send_state(struct tc_output *output, struct wl_resource *resource)
{
	const struct tc_output_spec *spec = &output->spec;
	uint32_t version = (uint32_t)wl_resource_get_version(resource);
	wl_output_send_geometry(resource, spec->x, spec->y, spec->physical_width, spec->physical_height,
				spec->subpixel, spec->make, spec->model, spec->transform);
	wl_output_send_mode(resource, WL_OUTPUT_MODE_CURRENT | WL_OUTPUT_MODE_PREFERRED, spec->mode.width,
			    spec->mode.height, spec->mode.refresh);
	for (int i = 0; i < spec->extra_mode_count; i++)
		wl_output_send_mode(resource, 0, spec->extra_modes[i].width, spec->extra_modes[i].height,
				    spec->extra_modes[i].refresh);
	if (version >= WL_OUTPUT_SCALE_SINCE_VERSION)
		wl_output_send_scale(resource, spec->scale);
	if (version >= WL_OUTPUT_NAME_SINCE_VERSION)
		wl_output_send_name(resource, spec->name);
	if (version >= WL_OUTPUT_DESCRIPTION_SINCE_VERSION)
		wl_output_send_description(resource, spec->description);
	if (version >= WL_OUTPUT_DONE_SINCE_VERSION && spec->sends_done)
		wl_output_send_done(resource);
}

static void output_release(struct wl_client *client, struct wl_resource *resource)
{
	(void)client;
	wl_resource_destroy(resource);
}

static const struct wl_output_interface output_requests = {
	.release = output_release,
};

static void output_resource_destroyed(struct wl_resource *resource)
{
	wl_list_remove(wl_resource_get_link(resource));
}

static void bind_output(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct tc_output *output = data;
	struct wl_resource *resource = wl_resource_create(client, &wl_output_interface, (int)version, id);
	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &output_requests, output, output_resource_destroyed);
	wl_list_insert(&output->resources, wl_resource_get_link(resource));
	send_state(output, resource);
	char name[TC_TEXT_MAX * 4];
	tc_log(output->server, "bound wl_output v%u %s", version, tc_escaped(output->spec.name, name, sizeof name));
	if (!output->bind_said) {
		output->bind_said = true;
		tc_say(output->server, "bound %s %llu", name, (unsigned long long)((tc_now_ns() - output->created_ns) / 1000u));
	}
	tc_removal_moment(output->server, TC_MOMENT_BIND, output);
}

/* Arms the output's timer: the next tick `first_ns` from now, then one every period. */
static int arm_ticks(struct tc_output *output, uint64_t first_ns)
{
	struct itimerspec ticks = {
		.it_interval = { (time_t)(output->period_ns / 1000000000u), (long)(output->period_ns % 1000000000u) },
		.it_value = { (time_t)(first_ns / 1000000000u), (long)(first_ns % 1000000000u) },
	};
	return timerfd_settime(output->timer_fd, 0, &ticks, NULL);
}

static int output_tick(int fd, uint32_t mask, void *data)
{
	(void)mask;
	struct tc_output *output = data;
	uint64_t expirations = 0;
	if (read(fd, &expirations, sizeof expirations) != (ssize_t)sizeof expirations)
		return 0;
	uint64_t before = output->sequence;
	output->sequence += expirations;
	tc_surfaces_tick(output->server, output, tc_now_ns());
	/* --late-tick: the next tick comes late, and the ticks after it a period apart from it. */
	const struct tc_options *options = &output->server->options;
	uint64_t every = (uint64_t)options->late_tick_every;
	if (every > 0 && output->sequence / every != before / every)
		arm_ticks(output, output->period_ns + (uint64_t)options->late_tick_ms * 1000000u);
	return 0;
}

static bool start_ticks(struct tc_output *output)
{
	output->period_ns = repaint_period_ns(output->spec.mode.refresh);
	output->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (output->timer_fd < 0)
		return false;
	if (arm_ticks(output, output->period_ns) < 0) {
		close(output->timer_fd);
		output->timer_fd = -1;
		return false;
	}
	output->timer = wl_event_loop_add_fd(output->server->loop, output->timer_fd, WL_EVENT_READABLE, output_tick,
					     output);
	return output->timer != NULL;
}

static void stop_ticks(struct tc_output *output)
{
	if (output->timer) {
		wl_event_source_remove(output->timer);
		output->timer = NULL;
	}
	if (output->timer_fd >= 0) {
		close(output->timer_fd);
		output->timer_fd = -1;
	}
}

struct tc_output *tc_output_create(struct tc_server *server, const struct tc_output_spec *spec)
{
	struct tc_output *output = calloc(1, sizeof *output);
	if (!output)
		return NULL;
	output->server = server;
	output->spec = *spec;
	output->timer_fd = -1;
	complete_spec(server, &output->spec);
	output->id = ++server->next_output_id;
	output->created_ns = tc_now_ns();
	wl_list_init(&output->resources);
	wl_list_init(&output->xdg_resources);
	output->global = wl_global_create(server->display, &wl_output_interface, (int)output->spec.version, output,
					  bind_output);
	if (!output->global || !start_ticks(output)) {
		stop_ticks(output);
		if (output->global)
			wl_global_destroy(output->global);
		free(output);
		return NULL;
	}
	wl_list_insert(server->outputs.prev, &output->link);
	char name[TC_TEXT_MAX * 4];
	tc_log(server, "output added %s %dx%d@%d scale %d transform %d logical %d,%d %dx%d wl_output v%u",
	       tc_escaped(output->spec.name, name, sizeof name), output->spec.mode.width, output->spec.mode.height,
	       output->spec.mode.refresh, output->spec.scale, output->spec.transform, output->spec.logical_x,
	       output->spec.logical_y, output->spec.logical_width, output->spec.logical_height, output->spec.version);
	return output;
}

/* The output's resources outlive it as inert objects: they must not point at it. */
static void detach_resources(struct wl_list *resources)
{
	struct wl_resource *resource, *next;
	wl_resource_for_each_safe(resource, next, resources) {
		wl_resource_set_user_data(resource, NULL);
		tc_resource_unlink(resource);
	}
}

static void output_destroy(struct tc_output *output)
{
	stop_ticks(output);
	if (output->destroy_timer)
		wl_event_source_remove(output->destroy_timer);
	if (output->global)
		wl_global_destroy(output->global);
	detach_resources(&output->resources);
	detach_resources(&output->xdg_resources);
	wl_list_remove(&output->link);
	free(output);
}

static int destroy_removed(void *data)
{
	struct tc_output *output = data;
	char name[TC_TEXT_MAX * 4];
	tc_log(output->server, "output destroyed %s", tc_escaped(output->spec.name, name, sizeof name));
	output_destroy(output);
	return 0;
}

void tc_output_remove(struct tc_output *output)
{
	if (output->removed)
		return;
	struct tc_server *server = output->server;
	output->removed = true;
	char name[TC_TEXT_MAX * 4];
	tc_log(server, "output removed %s", tc_escaped(output->spec.name, name, sizeof name));
	wl_global_remove(output->global);
	stop_ticks(output);
	tc_surfaces_output_removed(server, output);
	wl_list_remove(&output->link);
	wl_list_insert(&server->removed_outputs, &output->link);
	/* Clients may still bind the global until they have seen global_remove. */
	output->destroy_timer = wl_event_loop_add_timer(server->loop, destroy_removed, output);
	if (output->destroy_timer)
		wl_event_source_timer_update(output->destroy_timer, 1000);
	else
		output_destroy(output);
}

void tc_outputs_finish(struct tc_server *server)
{
	while (!wl_list_empty(&server->outputs))
		output_destroy(wl_container_of(server->outputs.next, (struct tc_output *)NULL, link));
	while (!wl_list_empty(&server->removed_outputs))
		output_destroy(wl_container_of(server->removed_outputs.next, (struct tc_output *)NULL, link));
}

struct tc_output *tc_output_find_by_name(struct tc_server *server, const char *name)
{
	struct tc_output *output;
	wl_list_for_each(output, &server->outputs, link)
		if (strcmp(output->spec.name, name) == 0)
			return output;
	return NULL;
}

struct tc_output *tc_output_find_by_id(struct tc_server *server, uint32_t id)
{
	struct tc_output *output;
	if (id == 0)
		return NULL;
	wl_list_for_each(output, &server->outputs, link)
		if (output->id == id)
			return output;
	return NULL;
}

struct tc_output *tc_output_first(struct tc_server *server)
{
	if (wl_list_empty(&server->outputs))
		return NULL;
	return wl_container_of(server->outputs.next, (struct tc_output *)NULL, link);
}

struct tc_output *tc_output_from_resource(struct wl_resource *resource)
{
	if (!resource)
		return NULL;
	struct tc_output *output = wl_resource_get_user_data(resource);
	return output && !output->removed ? output : NULL;
}

void tc_output_for_each_client_resource(struct tc_output *output, struct wl_client *client,
					void (*fn)(struct wl_resource *output_resource, void *data), void *data)
{
	struct wl_resource *resource, *next;
	wl_resource_for_each_safe(resource, next, &output->resources)
		if (wl_resource_get_client(resource) == client)
			fn(resource, data);
}

/* ---- --remove-output-at and --readd-after-ms ---- */

static int readd_output(void *data)
{
	struct tc_server *server = data;
	wl_event_source_remove(server->readd_timer);
	server->readd_timer = NULL;
	if (!tc_output_create(server, &server->removed_spec))
		tc_log(server, "could not add output %s back", server->removed_spec.name);
	return 0;
}

static void remove_at_moment(void *data)
{
	struct tc_server *server = data;
	struct tc_output *output = tc_output_find_by_id(server, server->removal_output_id);
	if (!output)
		return;
	server->removed_spec = output->spec;
	tc_output_remove(output);
	if (server->options.readd_after_ms < 0)
		return;
	server->readd_timer = wl_event_loop_add_timer(server->loop, readd_output, server);
	if (server->readd_timer) /* a delay of 0 would disarm the timer */
		wl_event_source_timer_update(server->readd_timer,
					     server->options.readd_after_ms > 0 ? (int)server->options.readd_after_ms : 1);
}

void tc_removal_moment(struct tc_server *server, enum tc_moment moment, struct tc_output *output)
{
	const struct tc_options *options = &server->options;
	if (options->remove_at != moment || server->removal_fired)
		return;
	if (!output)
		output = tc_output_find_by_name(server, options->remove_name);
	if (!output || output->removed || strcmp(output->spec.name, options->remove_name) != 0)
		return;
	server->removal_fired = true;
	server->removal_output_id = output->id;
	char name[TC_TEXT_MAX * 4];
	tc_log(server, "remove-output-at %s: removing %s", tc_moment_name(moment), tc_escaped(output->spec.name, name, sizeof name));
	/* Not from inside the handler that noticed the moment: from the loop, right after it. */
	wl_event_loop_add_idle(server->loop, remove_at_moment, server);
}

/* ---- zxdg_output_manager_v1 ---- */

static void xdg_output_destroy_request(struct wl_client *client, struct wl_resource *resource)
{
	(void)client;
	wl_resource_destroy(resource);
}

static const struct zxdg_output_v1_interface xdg_output_requests = {
	.destroy = xdg_output_destroy_request,
};

static void xdg_output_resource_destroyed(struct wl_resource *resource)
{
	wl_list_remove(wl_resource_get_link(resource));
}

static void manager_destroy(struct wl_client *client, struct wl_resource *resource)
{
	(void)client;
	wl_resource_destroy(resource);
}

static void manager_get_xdg_output(struct wl_client *client, struct wl_resource *manager, uint32_t id,
				   struct wl_resource *output_resource)
{
	struct tc_server *server = wl_resource_get_user_data(manager);
	uint32_t version = (uint32_t)wl_resource_get_version(manager);
	struct wl_resource *resource = wl_resource_create(client, &zxdg_output_v1_interface, (int)version, id);
	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	struct tc_output *output = tc_output_from_resource(output_resource);
	wl_resource_set_implementation(resource, &xdg_output_requests, output, xdg_output_resource_destroyed);
	if (!output) { /* an output that has gone: an inert object that describes nothing */
		wl_list_init(wl_resource_get_link(resource));
		tc_log(server, "bound zxdg_output_v1 v%u for a removed output", version);
		return;
	}
	wl_list_insert(&output->xdg_resources, wl_resource_get_link(resource));
	const struct tc_output_spec *spec = &output->spec;
	zxdg_output_v1_send_logical_position(resource, spec->logical_x, spec->logical_y);
	zxdg_output_v1_send_logical_size(resource, spec->logical_width, spec->logical_height);
	if (version >= ZXDG_OUTPUT_V1_NAME_SINCE_VERSION)
		zxdg_output_v1_send_name(resource, spec->name);
	if (version >= ZXDG_OUTPUT_V1_DESCRIPTION_SINCE_VERSION)
		zxdg_output_v1_send_description(resource, spec->description);
	if (spec->sends_done) {
		/* Version 3 moved done to wl_output. */
		if (version >= 3) {
			if (wl_resource_get_version(output_resource) >= WL_OUTPUT_DONE_SINCE_VERSION)
				wl_output_send_done(output_resource);
		} else {
			zxdg_output_v1_send_done(resource);
		}
	}
	char name[TC_TEXT_MAX * 4];
	tc_log(server, "bound zxdg_output_v1 v%u %s", version, tc_escaped(spec->name, name, sizeof name));
	tc_removal_moment(server, TC_MOMENT_XDG_OUTPUT, output);
}

static const struct zxdg_output_manager_v1_interface manager_requests = {
	.destroy = manager_destroy,
	.get_xdg_output = manager_get_xdg_output,
};

static void bind_manager(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct tc_server *server = data;
	struct wl_resource *resource = wl_resource_create(client, &zxdg_output_manager_v1_interface, (int)version, id);
	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &manager_requests, server, NULL);
	tc_log(server, "bound zxdg_output_manager_v1 v%u", version);
}

void tc_xdg_output_manager_create(struct tc_server *server)
{
	wl_global_create(server->display, &zxdg_output_manager_v1_interface, 3, server, bind_manager);
}
