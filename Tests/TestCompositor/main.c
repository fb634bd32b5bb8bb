/* TestCompositor's entry: options, globals, `ready SOCKET`, the loop, a clean exit. */
#include "compositor.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

static int terminate(int signal_number, void *data)
{
	struct tc_server *server = data;
	tc_log(server, "signal %d: exiting", signal_number);
	server->exit_status = 0;
	wl_display_terminate(server->display);
	return 0;
}

struct client_watch {
	struct wl_listener destroyed;
	struct tc_server *server;
	pid_t pid;
};

static void client_destroyed(struct wl_listener *listener, void *data)
{
	(void)data;
	struct client_watch *watch = wl_container_of(listener, watch, destroyed);
	tc_log(watch->server, "client %d disconnected", (int)watch->pid);
	wl_list_remove(&watch->destroyed.link);
	free(watch);
}

static void client_created(struct wl_listener *listener, void *data)
{
	struct tc_server *server = wl_container_of(listener, server, client_created);
	struct wl_client *client = data;
	struct client_watch *watch = calloc(1, sizeof *watch);
	if (!watch)
		return;
	watch->server = server;
	wl_client_get_credentials(client, &watch->pid, NULL, NULL);
	watch->destroyed.notify = client_destroyed;
	wl_client_add_destroy_listener(client, &watch->destroyed);
	tc_log(server, "client %d connected", (int)watch->pid);
}

static bool open_log(struct tc_server *server)
{
	const char *path = server->options.log_path;
	if (!path)
		return true;
	if (strcmp(path, "stdout") == 0) {
		server->log = stdout;
		server->log_is_stdout = true;
		return true;
	}
	if (strcmp(path, "stderr") == 0) {
		server->log = stderr;
		return true;
	}
	server->log = fopen(path, "w");
	if (!server->log) {
		fprintf(stderr, "TestCompositor: cannot open the log %s\n", path);
		return false;
	}
	return true;
}

static void create_globals(struct tc_server *server)
{
	const struct tc_options *options = &server->options;
	wl_display_init_shm(server->display); /* ARGB8888 and XRGB8888: what llvmpipe draws into */
	tc_compositor_create(server);
	tc_shell_create(server);
	if (!options->without_xdg_output)
		tc_xdg_output_manager_create(server);
	if (!options->without_presentation)
		tc_presentation_create(server);
	if (!options->without_viewporter)
		tc_viewporter_create(server);
	if (!options->without_fractional_scale)
		tc_fractional_scale_manager_create(server);
	if (!options->without_seat)
		tc_seat_create(server);
}

int main(int argc, char **argv)
{
	static struct tc_server server;
	tc_options_parse(&server.options, argc, argv);
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGPIPE, SIG_IGN);
	if (!getenv("XDG_RUNTIME_DIR")) {
		fprintf(stderr, "TestCompositor: XDG_RUNTIME_DIR is not set\n");
		return 1;
	}
	if (!open_log(&server))
		return 1;
	tc_log_capture_libwayland(&server);

	server.display = wl_display_create();
	if (!server.display) {
		fprintf(stderr, "TestCompositor: wl_display_create failed\n");
		return 1;
	}
	server.loop = wl_display_get_event_loop(server.display);
	wl_list_init(&server.surfaces);
	wl_list_init(&server.touches);
	wl_list_init(&server.touch_points);
	wl_list_init(&server.orphan_feedbacks);
	tc_outputs_init(&server);

	if (server.options.socket) {
		if (wl_display_add_socket(server.display, server.options.socket) != 0) {
			fprintf(stderr, "TestCompositor: cannot create the socket %s in %s\n", server.options.socket,
				getenv("XDG_RUNTIME_DIR"));
			return 1;
		}
		server.socket_name = server.options.socket;
	} else {
		server.socket_name = wl_display_add_socket_auto(server.display);
		if (!server.socket_name) {
			fprintf(stderr, "TestCompositor: cannot create a socket in %s\n", getenv("XDG_RUNTIME_DIR"));
			return 1;
		}
	}

	create_globals(&server);
	for (int i = 0; i < server.options.output_count; i++) {
		if (!tc_output_create(&server, &server.options.outputs[i])) {
			fprintf(stderr, "TestCompositor: cannot create output %s\n", server.options.outputs[i].name);
			return 1;
		}
	}
	struct wl_event_source *sigterm = wl_event_loop_add_signal(server.loop, SIGTERM, terminate, &server);
	struct wl_event_source *sigint = wl_event_loop_add_signal(server.loop, SIGINT, terminate, &server);
	server.client_created.notify = client_created;
	wl_display_add_client_created_listener(server.display, &server.client_created);
	if (server.options.control_path && !tc_control_open(&server, server.options.control_path))
		return 1;
	tc_shell_start_ping_timer(&server);

	tc_say(&server, "ready %s", server.socket_name);
	wl_display_run(server.display);

	/* Teardown in the reverse order of setup. */
	tc_control_close(&server);
	wl_display_destroy_clients(server.display);
	tc_outputs_finish(&server);
	struct wl_event_source *sources[] = { server.ping_timer, server.readd_timer, server.orphan_idle, sigint, sigterm };
	for (size_t i = 0; i < sizeof sources / sizeof sources[0]; i++)
		if (sources[i])
			wl_event_source_remove(sources[i]);
	wl_list_remove(&server.client_created.link);
	wl_display_destroy(server.display);
	tc_options_release(&server.options);
	if (server.log && server.log != stdout && server.log != stderr)
		fclose(server.log);
	return server.exit_status;
}
