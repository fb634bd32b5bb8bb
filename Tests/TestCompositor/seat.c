/* wl_seat with touch (pointer and keyboard on request); touch events come from control commands. */
#include "compositor.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-server-protocol.h>

struct touch {
	struct wl_list link; /* tc_server.touches */
	struct wl_resource *resource;
	bool needs_frame;
};

/* A keymap of names only: the client resolves it against its own XKB data. */
static const char keymap_text[] = "xkb_keymap {\n"
				  "  xkb_keycodes { include \"evdev+aliases(qwerty)\" };\n"
				  "  xkb_types { include \"complete\" };\n"
				  "  xkb_compat { include \"complete\" };\n"
				  "  xkb_symbols { include \"pc+us+inet(evdev)\" };\n"
				  "};\n";

static void release_request(struct wl_client *client, struct wl_resource *resource)
{
	(void)client;
	wl_resource_destroy(resource);
}

static void touch_destroyed(struct wl_resource *resource)
{
	struct touch *touch = wl_resource_get_user_data(resource);
	wl_list_remove(&touch->link);
	free(touch);
}

static const struct wl_touch_interface touch_requests = {
	.release = release_request,
};

static void pointer_set_cursor(struct wl_client *client, struct wl_resource *resource, uint32_t serial,
			       struct wl_resource *surface, int32_t x, int32_t y)
{
	(void)client, (void)resource, (void)serial, (void)surface, (void)x, (void)y;
}

static const struct wl_pointer_interface pointer_requests = {
	.set_cursor = pointer_set_cursor,
	.release = release_request,
};

static const struct wl_keyboard_interface keyboard_requests = {
	.release = release_request,
};

static void send_keymap(struct wl_resource *keyboard)
{
	int fd = memfd_create("tc-keymap", MFD_CLOEXEC);
	if (fd < 0)
		return;
	if (write(fd, keymap_text, sizeof keymap_text) == (ssize_t)sizeof keymap_text)
		wl_keyboard_send_keymap(keyboard, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1, fd, sizeof keymap_text);
	close(fd);
}

static void seat_get_pointer(struct wl_client *client, struct wl_resource *resource, uint32_t id)
{
	struct wl_resource *pointer = wl_resource_create(client, &wl_pointer_interface, wl_resource_get_version(resource),
							 id);
	if (!pointer) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(pointer, &pointer_requests, NULL, NULL);
}

static void seat_get_keyboard(struct wl_client *client, struct wl_resource *resource, uint32_t id)
{
	struct tc_server *server = wl_resource_get_user_data(resource);
	struct wl_resource *keyboard =
		wl_resource_create(client, &wl_keyboard_interface, wl_resource_get_version(resource), id);
	if (!keyboard) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(keyboard, &keyboard_requests, NULL, NULL);
	if (!(server->options.seat_capabilities & WL_SEAT_CAPABILITY_KEYBOARD))
		return; /* inert, as for a capability the seat does not have */
	send_keymap(keyboard);
	if (wl_resource_get_version(keyboard) >= WL_KEYBOARD_REPEAT_INFO_SINCE_VERSION)
		wl_keyboard_send_repeat_info(keyboard, 25, 600);
}

static void seat_get_touch(struct wl_client *client, struct wl_resource *resource, uint32_t id)
{
	struct tc_server *server = wl_resource_get_user_data(resource);
	struct touch *touch = calloc(1, sizeof *touch);
	struct wl_resource *created =
		touch ? wl_resource_create(client, &wl_touch_interface, wl_resource_get_version(resource), id) : NULL;
	if (!created) {
		free(touch);
		wl_client_post_no_memory(client);
		return;
	}
	touch->resource = created;
	wl_list_insert(server->touches.prev, &touch->link);
	wl_resource_set_implementation(created, &touch_requests, touch, touch_destroyed);
	tc_log(server, "wl_touch#%u created", id);
}

static const struct wl_seat_interface seat_requests = {
	.get_pointer = seat_get_pointer,
	.get_keyboard = seat_get_keyboard,
	.get_touch = seat_get_touch,
	.release = release_request,
};

static void bind_seat(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct tc_server *server = data;
	struct wl_resource *resource = wl_resource_create(client, &wl_seat_interface, (int)version, id);
	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &seat_requests, server, NULL);
	wl_seat_send_capabilities(resource, server->options.seat_capabilities);
	if (version >= WL_SEAT_NAME_SINCE_VERSION)
		wl_seat_send_name(resource, "seat0");
	tc_log(server, "bound wl_seat v%u", version);
}

void tc_seat_create(struct tc_server *server)
{
	wl_global_create(server->display, &wl_seat_interface, 7, server, bind_seat);
}

/* ---- touch points, driven by the control FIFO ---- */

static struct tc_touch_point *find_point(struct tc_server *server, int32_t id)
{
	struct tc_touch_point *point;
	wl_list_for_each(point, &server->touch_points, link)
		if (point->id == id)
			return point;
	return NULL;
}

static uint32_t now_ms(void)
{
	return (uint32_t)(tc_now_ns() / 1000000u);
}

void tc_seat_surface_destroyed(struct tc_server *server, struct tc_surface *surface)
{
	struct tc_touch_point *point, *next;
	wl_list_for_each_safe(point, next, &server->touch_points, link) {
		if (point->surface == surface) {
			wl_list_remove(&point->link);
			free(point);
		}
	}
}

bool tc_touch_down(struct tc_server *server, int32_t id, const char *output_name, double x, double y, char *error,
		   size_t error_size)
{
	struct tc_output *output = tc_output_find_by_name(server, output_name);
	struct tc_surface *surface = output ? tc_surface_on_output(server, output) : NULL;
	if (!surface) {
		snprintf(error, error_size, output ? "no window on %s" : "no output %s", output_name);
		return false;
	}
	if (find_point(server, id)) {
		snprintf(error, error_size, "touch point %d is already down", id);
		return false;
	}
	struct tc_touch_point *point = calloc(1, sizeof *point);
	if (!point) {
		snprintf(error, error_size, "out of memory");
		return false;
	}
	struct wl_client *client = wl_resource_get_client(surface->resource);
	uint32_t serial = wl_display_next_serial(server->display);
	int sent = 0;
	struct touch *touch;
	wl_list_for_each(touch, &server->touches, link) {
		if (wl_resource_get_client(touch->resource) != client)
			continue;
		wl_touch_send_down(touch->resource, serial, now_ms(), surface->resource, id, wl_fixed_from_double(x),
				   wl_fixed_from_double(y));
		touch->needs_frame = true;
		sent++;
	}
	if (sent == 0) {
		free(point);
		snprintf(error, error_size, "the client of the window on %s has no wl_touch", output_name);
		return false;
	}
	point->id = id;
	point->surface = surface;
	wl_list_insert(&server->touch_points, &point->link);
	tc_log(server, "touch down %d %s %g %g serial %u surface#%u", id, output_name, x, y, serial,
	       wl_resource_get_id(surface->resource));
	return true;
}

static int send_to_point_client(struct tc_server *server, struct tc_touch_point *point,
				void (*send)(struct wl_resource *touch, void *data), void *data)
{
	struct wl_client *client = wl_resource_get_client(point->surface->resource);
	int sent = 0;
	struct touch *touch;
	wl_list_for_each(touch, &server->touches, link) {
		if (wl_resource_get_client(touch->resource) != client)
			continue;
		send(touch->resource, data);
		touch->needs_frame = true;
		sent++;
	}
	return sent;
}

struct motion {
	int32_t id;
	wl_fixed_t x, y;
};

static void send_motion(struct wl_resource *touch, void *data)
{
	struct motion *motion = data;
	wl_touch_send_motion(touch, now_ms(), motion->id, motion->x, motion->y);
}

bool tc_touch_motion(struct tc_server *server, int32_t id, double x, double y, char *error, size_t error_size)
{
	struct tc_touch_point *point = find_point(server, id);
	if (!point) {
		snprintf(error, error_size, "touch point %d is not down", id);
		return false;
	}
	struct motion motion = { id, wl_fixed_from_double(x), wl_fixed_from_double(y) };
	send_to_point_client(server, point, send_motion, &motion);
	tc_log(server, "touch motion %d %g %g", id, x, y);
	return true;
}

struct up {
	uint32_t serial;
	int32_t id;
};

static void send_up(struct wl_resource *touch, void *data)
{
	struct up *up = data;
	wl_touch_send_up(touch, up->serial, now_ms(), up->id);
}

bool tc_touch_up(struct tc_server *server, int32_t id, char *error, size_t error_size)
{
	struct tc_touch_point *point = find_point(server, id);
	if (!point) {
		snprintf(error, error_size, "touch point %d is not down", id);
		return false;
	}
	struct up up = { wl_display_next_serial(server->display), id };
	send_to_point_client(server, point, send_up, &up);
	wl_list_remove(&point->link);
	free(point);
	tc_log(server, "touch up %d serial %u", id, up.serial);
	return true;
}

void tc_touch_frame(struct tc_server *server)
{
	bool pending = false;
	struct touch *touch;
	wl_list_for_each(touch, &server->touches, link)
		pending = pending || touch->needs_frame;
	/* With nothing pending, a frame for everyone: a test may send one on its own. */
	wl_list_for_each(touch, &server->touches, link) {
		if (touch->needs_frame || !pending)
			wl_touch_send_frame(touch->resource);
		touch->needs_frame = false;
	}
	tc_log(server, "touch frame");
}

void tc_touch_cancel(struct tc_server *server)
{
	struct touch *touch;
	wl_list_for_each(touch, &server->touches, link) {
		wl_touch_send_cancel(touch->resource);
		touch->needs_frame = false;
	}
	struct tc_touch_point *point, *next;
	wl_list_for_each_safe(point, next, &server->touch_points, link) {
		wl_list_remove(&point->link);
		free(point);
	}
	tc_log(server, "touch cancel");
}
