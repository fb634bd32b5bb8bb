/*
 * TestCompositor: a small Wayland compositor for glout's tests that serves what glout
 * needs and sends wrong or extreme values on purpose, as its options say.
 *
 * This header holds the state every part shares. Each concept lives in its own file:
 * options.c (command line), output.c (wl_output, xdg-output, repaint ticks),
 * surface.c (wl_compositor, wl_surface, frame callbacks, buffers), shell.c (xdg-shell),
 * presentation.c, viewporter.c, fractional_scale.c, seat.c (touch), control.c (the
 * FIFO), screenshot.c, log.c, resource_list.c, core_v6.c (wl_compositor 6 for
 * libwayland < 1.22).
 */
#ifndef TC_COMPOSITOR_H
#define TC_COMPOSITOR_H

/* Included first by every .c file: SwiftPM does not pass -D_GNU_SOURCE. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <wayland-server-core.h>

#define TC_TEXT_MAX 256
#define TC_MODES_MAX 32
#define TC_SIZES_MAX 32

/* ---- options (options.c) ---- */

enum tc_frame_mode { TC_FRAMES_NORMAL, TC_FRAMES_NEVER, TC_FRAMES_IMMEDIATE, TC_FRAMES_ODD_TIMES };

enum tc_presentation_mode {
	TC_PRESENT_NORMAL,
	TC_PRESENT_NEVER,
	TC_PRESENT_DISCARDED,
	TC_PRESENT_HUGE_SECONDS,
	TC_PRESENT_BAD_NSEC,
	TC_PRESENT_BACKWARDS,
	TC_PRESENT_ZERO_REFRESH,
	TC_PRESENT_HUGE_REFRESH,
};

/* The moments of a window's set-up at which --remove-output-at removes an output. */
enum tc_moment {
	TC_MOMENT_NONE,
	TC_MOMENT_BIND,
	TC_MOMENT_XDG_OUTPUT,
	TC_MOMENT_XDG_SURFACE,
	TC_MOMENT_TOPLEVEL,
	TC_MOMENT_FULLSCREEN,
	TC_MOMENT_CONFIGURE,
	TC_MOMENT_ACK,
	TC_MOMENT_FIRST_COMMIT,
	TC_MOMENT_FRAME,
};

struct tc_size {
	int32_t width, height;
};

struct tc_mode {
	int32_t width, height, refresh; /* refresh in mHz, as wl_output.mode sends it */
};

/* One output as --output describes it; unset fields are filled in by tc_output_create. */
struct tc_output_spec {
	char name[TC_TEXT_MAX], description[TC_TEXT_MAX], make[TC_TEXT_MAX], model[TC_TEXT_MAX];
	bool has_name, has_description;
	struct tc_mode mode; /* the current and preferred mode */
	struct tc_mode extra_modes[TC_MODES_MAX];
	int extra_mode_count;
	int32_t scale, transform, subpixel;
	int32_t x, y, physical_width, physical_height;
	bool has_x, has_y, has_physical_width, has_physical_height;
	int32_t logical_x, logical_y, logical_width, logical_height;
	bool has_logical_x, has_logical_y, has_logical_width, has_logical_height;
	uint32_t version; /* wl_output version, 1..4 */
	bool sends_done;
};

struct tc_options {
	const char *socket;
	struct tc_output_spec *outputs;
	int output_count;
	uint32_t compositor_version;
	bool has_configure_size, no_configure;
	struct tc_size configure_size;
	uint32_t storm_count;
	struct tc_size storm_sizes[TC_SIZES_MAX];
	int storm_size_count;
	enum tc_frame_mode frames;
	enum tc_presentation_mode presentation;
	uint32_t presentation_clock;
	bool release_never;
	/* --faults-on NAME: the output whose windows get no configure or release (empty: all) */
	char faults_on[TC_TEXT_MAX];
	bool has_fractional_scale, has_preferred_buffer_scale, has_preferred_transform;
	uint32_t fractional_scale, preferred_transform;
	int32_t preferred_buffer_scale;
	enum tc_moment remove_at;
	char remove_name[TC_TEXT_MAX];
	int64_t readd_after_ms; /* -1: never */
	int64_t ping_every_ms;  /* 0: never */
	int64_t late_tick_every, late_tick_ms; /* --late-tick (every 0: never) */
	const char *log_path;
	const char *control_path;
	uint32_t seat_capabilities;
	bool without_xdg_output, without_presentation, without_viewporter, without_fractional_scale,
		without_seat;
};

/* Parses argv; prints usage and exits 2 on a wrong option. */
void tc_options_parse(struct tc_options *options, int argc, char **argv);
void tc_options_release(struct tc_options *options);
/* Parses an output SPEC (key=value,...) over a default spec; false and a message on error. */
bool tc_output_spec_parse(struct tc_output_spec *spec, const char *text, char *error, size_t error_size);
void tc_output_spec_default(struct tc_output_spec *spec, int index, int32_t width, int32_t height);
const char *tc_moment_name(enum tc_moment moment);

/* ---- the server's shared state ---- */

struct tc_server {
	struct wl_display *display;
	struct wl_event_loop *loop;
	struct tc_options options;
	const char *socket_name;
	FILE *log;
	bool log_is_stdout;

	struct wl_list outputs;         /* tc_output.link: live outputs, in creation order */
	struct wl_list removed_outputs; /* tc_output.link: removed, global not yet destroyed */
	struct wl_list surfaces;        /* tc_surface.link: newest first */
	struct wl_list wm_bases;        /* tc_wm_base.link */
	struct wl_list touches;         /* wl_touch resources (seat.c's struct touch) */
	struct wl_list touch_points;    /* tc_touch_point.link */
	struct wl_list orphan_feedbacks; /* feedback resources of destroyed surfaces (links) */
	struct wl_event_source *orphan_idle;

	uint32_t next_output_id;
	uint32_t next_ping_serial;
	bool removal_fired;
	uint32_t removal_output_id;
	struct tc_output_spec removed_spec;
	struct wl_event_source *readd_timer, *ping_timer;
	struct wl_listener client_created;
	int exit_status;
};

/* ---- log.c ---- */

/* One line to the --log sink (if any). */
void tc_log(struct tc_server *server, const char *format, ...) __attribute__((format(printf, 2, 3)));
/* One line to stdout, which tests read (ready, pong, screenshot), and to the log. */
void tc_say(struct tc_server *server, const char *format, ...) __attribute__((format(printf, 2, 3)));
/* wl_resource_post_error, logged. */
void tc_post_error(struct tc_server *server, struct wl_resource *resource, uint32_t code,
		   const char *format, ...) __attribute__((format(printf, 4, 5)));
/* Text as a C-escaped string, for logs: control bytes and non-ASCII as \xNN. */
const char *tc_escaped(const char *text, char *buffer, size_t size);
uint64_t tc_now_ns(void);
/* libwayland-server's own messages (a client's protocol error...) go to stderr and the log. */
void tc_log_capture_libwayland(struct tc_server *server);

/* ---- output.c ---- */

struct tc_output {
	struct wl_list link;
	struct tc_server *server;
	struct tc_output_spec spec;
	uint32_t id; /* never reused: surfaces refer to outputs by id */
	struct wl_global *global;
	struct wl_list resources;     /* wl_output resources (their links) */
	struct wl_list xdg_resources; /* zxdg_output_v1 resources (their links) */
	int timer_fd;
	struct wl_event_source *timer;
	uint64_t period_ns;
	uint64_t sequence;
	uint64_t backwards_ns; /* for --presentation backwards */
	bool removed;
	struct wl_event_source *destroy_timer;
	/* When its global was made, and whether a client's first bind of it and the first
	 * set_fullscreen onto it were said (the `bound` and `fullscreen` stdout lines). */
	uint64_t created_ns;
	bool bind_said, fullscreen_said;
};

void tc_outputs_init(struct tc_server *server);
struct tc_output *tc_output_create(struct tc_server *server, const struct tc_output_spec *spec);
/* wl_global_remove now, wl_global_destroy about a second later. */
void tc_output_remove(struct tc_output *output);
void tc_outputs_finish(struct tc_server *server);
struct tc_output *tc_output_find_by_name(struct tc_server *server, const char *name);
struct tc_output *tc_output_find_by_id(struct tc_server *server, uint32_t id);
struct tc_output *tc_output_first(struct tc_server *server);
/* The output a wl_output resource stands for, or NULL once that output is gone. */
struct tc_output *tc_output_from_resource(struct wl_resource *resource);
struct tc_size tc_output_logical_size(const struct tc_output *output);
/* Calls fn for each of client's wl_output resources bound to output. */
void tc_output_for_each_client_resource(struct tc_output *output, struct wl_client *client,
					void (*fn)(struct wl_resource *output_resource, void *data), void *data);
/* --remove-output-at: removes the named output if this moment is the one asked for. */
void tc_removal_moment(struct tc_server *server, enum tc_moment moment, struct tc_output *output);
void tc_xdg_output_manager_create(struct tc_server *server);

/* ---- surface.c ---- */

struct tc_buffer_ref {
	struct wl_resource *buffer;
	struct wl_listener destroy;
};

struct tc_xdg_surface;

struct tc_surface {
	struct wl_list link;
	struct tc_server *server;
	struct wl_resource *resource;
	uint64_t creation;

	/* pending state, applied by commit */
	struct tc_buffer_ref pending_buffer;
	bool pending_attached;
	int32_t pending_scale, pending_transform;
	struct wl_list pending_frames;    /* wl_callback resources */
	struct wl_list pending_feedbacks; /* wp_presentation_feedback resources */

	/* committed, waiting for the output's next tick */
	struct tc_buffer_ref queued_buffer;
	bool has_queued_content;
	struct wl_list queued_frames;
	struct wl_list queued_feedbacks;
	/* on screen */
	struct tc_buffer_ref shown_buffer;

	int32_t scale, transform;
	bool mapped;
	uint32_t output_id; /* the output it entered; 0: none */
	bool orphaned;      /* its output left: no more ticks */
	uint32_t odd_time_index, odd_start_ms;
	bool frame_moment_seen;

	/* last committed pixels (wl_shm), for screenshots */
	uint8_t *pixels;
	size_t pixels_capacity;
	int32_t pixel_width, pixel_height, pixel_stride;
	uint32_t pixel_format;
	bool has_pixels;
	int32_t logged_width, logged_height, logged_scale;

	struct tc_xdg_surface *xdg;
	struct wl_resource *viewport, *fractional_scale;
};

void tc_compositor_create(struct tc_server *server);
struct tc_surface *tc_surface_from_resource(struct wl_resource *resource);
/* The output's repaint: content becomes shown, frame callbacks and feedback answered. */
void tc_surfaces_tick(struct tc_server *server, struct tc_output *output, uint64_t now_ns);
/* Puts a surface on an output: leave the old one, enter the new one, preferred scales. */
void tc_surface_set_output(struct tc_surface *surface, struct tc_output *output);
/* The output is leaving: its surfaces get leave and no more ticks. */
void tc_surfaces_output_removed(struct tc_server *server, struct tc_output *output);
/* The newest mapped surface on output, or NULL. */
struct tc_surface *tc_surface_on_output(struct tc_server *server, struct tc_output *output);

/* ---- core_v6.c: wl_compositor and wl_surface described up to version 6 ---- */

extern const struct wl_interface tc_wl_compositor_interface;
extern const struct wl_interface tc_wl_surface_interface;
#define TC_WL_SURFACE_PREFERRED_BUFFER_SCALE 2
#define TC_WL_SURFACE_PREFERRED_BUFFER_TRANSFORM 3

/* ---- shell.c ---- */

struct tc_wm_base {
	struct wl_list link;
	struct tc_server *server;
	struct wl_resource *resource;
	struct wl_list xdg_surfaces; /* tc_xdg_surface.wm_link */
	uint32_t ping_serial;
	uint64_t ping_sent_ns;
	bool ping_outstanding;
};

struct tc_xdg_surface {
	struct tc_server *server;
	struct wl_resource *resource;
	struct tc_surface *surface;
	struct tc_wm_base *wm_base;
	struct wl_list wm_link;
	struct wl_resource *toplevel, *popup;
	bool configure_sent, acked, has_unacked, storm_done;
	uint32_t oldest_unacked, last_sent;
	bool fullscreen, maximized;
	uint32_t fullscreen_output_id;
	int32_t popup_width, popup_height;
	char title[TC_TEXT_MAX], app_id[TC_TEXT_MAX];
};

void tc_shell_create(struct tc_server *server);
/* False, and a protocol error posted, for a buffer committed before the first ack. */
bool tc_xdg_surface_may_attach(struct tc_xdg_surface *xdg, struct wl_resource *buffer);
/* A commit on a surface with the xdg_surface role: the initial configure. */
void tc_xdg_surface_committed(struct tc_xdg_surface *xdg);
/* The output the window asks to be on (its fullscreen output), else the first output. */
struct tc_output *tc_xdg_surface_target_output(struct tc_xdg_surface *xdg);
/* Whether the window gets --no-configure's and --release never's faults: every window,
 * or with --faults-on NAME those for output NAME. */
bool tc_xdg_surface_faulted(struct tc_xdg_surface *xdg);
void tc_shell_ping_all(struct tc_server *server);
void tc_shell_start_ping_timer(struct tc_server *server);

/* ---- presentation.c ---- */

void tc_presentation_create(struct tc_server *server);
/* Answers feedback resources of content that reached the screen on output. */
void tc_presentation_present(struct tc_server *server, struct wl_list *feedbacks, struct tc_output *output,
			     uint64_t now_ns);
/* Answers with discarded and destroys every feedback resource of the list (never: forgets them). */
void tc_presentation_discard(struct tc_server *server, struct wl_list *feedbacks);
/* Detaches feedback resources from a list; they are discarded from an idle callback. */
void tc_presentation_orphan(struct tc_server *server, struct wl_list *feedbacks);

/* ---- viewporter.c, fractional_scale.c ---- */

void tc_viewporter_create(struct tc_server *server);
void tc_viewport_commit(struct wl_resource *viewport);
void tc_viewport_surface_destroyed(struct wl_resource *viewport);
void tc_fractional_scale_manager_create(struct tc_server *server);
void tc_fractional_scale_send(struct wl_resource *fractional_scale, struct tc_output *output);
void tc_fractional_scale_surface_destroyed(struct wl_resource *fractional_scale);

/* ---- seat.c ---- */

struct tc_touch_point {
	struct wl_list link;
	int32_t id;
	struct tc_surface *surface;
};

void tc_seat_create(struct tc_server *server);
void tc_seat_surface_destroyed(struct tc_server *server, struct tc_surface *surface);
bool tc_touch_down(struct tc_server *server, int32_t id, const char *output_name, double x, double y,
		   char *error, size_t error_size);
bool tc_touch_motion(struct tc_server *server, int32_t id, double x, double y, char *error, size_t error_size);
bool tc_touch_up(struct tc_server *server, int32_t id, char *error, size_t error_size);
void tc_touch_frame(struct tc_server *server);
void tc_touch_cancel(struct tc_server *server);

/* ---- control.c, screenshot.c ---- */

bool tc_control_open(struct tc_server *server, const char *path);
void tc_control_close(struct tc_server *server);
void tc_screenshot(struct tc_server *server, const char *output_name, const char *path);

/* Helpers shared by the list-of-resources pattern: a resource kept in one of our lists by
 * its own link unlinks itself when destroyed. */
void tc_resource_unlink(struct wl_resource *resource);
/* Unlinks every resource of a list, leaving each link safe to remove again. */
void tc_resource_list_detach(struct wl_list *list);

#endif
