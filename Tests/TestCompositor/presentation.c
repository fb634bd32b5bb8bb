/* wp_presentation: feedback answered at the output's tick, right or wrong as --presentation says. */
#include "compositor.h"

#include "protocols/presentation-time-server-protocol.h"

static void feedback_destroyed(struct wl_resource *resource)
{
	wl_list_remove(wl_resource_get_link(resource));
}

void tc_presentation_discard(struct tc_server *server, struct wl_list *feedbacks)
{
	if (server->options.presentation == TC_PRESENT_NEVER) {
		tc_resource_list_detach(feedbacks); /* kept alive, never answered */
		return;
	}
	struct wl_resource *feedback, *next;
	wl_resource_for_each_safe(feedback, next, feedbacks) {
		wp_presentation_feedback_send_discarded(feedback);
		wl_resource_destroy(feedback);
	}
}

static void send_sync_output(struct wl_resource *output_resource, void *data)
{
	wp_presentation_feedback_send_sync_output(data, output_resource);
}

void tc_presentation_present(struct tc_server *server, struct wl_list *feedbacks, struct tc_output *output,
			     uint64_t now_ns)
{
	enum tc_presentation_mode mode = server->options.presentation;
	if (mode == TC_PRESENT_NEVER || mode == TC_PRESENT_DISCARDED) {
		tc_presentation_discard(server, feedbacks);
		return;
	}
	uint64_t seconds = now_ns / 1000000000u;
	uint32_t nanoseconds = (uint32_t)(now_ns % 1000000000u);
	uint32_t refresh = (uint32_t)output->period_ns;
	switch (mode) {
	case TC_PRESENT_HUGE_SECONDS:
		seconds = UINT64_MAX;
		break;
	case TC_PRESENT_BAD_NSEC:
		nanoseconds = UINT32_MAX; /* beyond 999999999 */
		break;
	case TC_PRESENT_BACKWARDS: {
		/* One refresh period earlier at every tick. */
		if (output->backwards_ns == 0)
			output->backwards_ns = now_ns + output->sequence * output->period_ns;
		uint64_t back = output->sequence * output->period_ns;
		uint64_t when = back < output->backwards_ns ? output->backwards_ns - back : 0;
		seconds = when / 1000000000u;
		nanoseconds = (uint32_t)(when % 1000000000u);
		break;
	}
	case TC_PRESENT_ZERO_REFRESH:
		refresh = 0;
		break;
	case TC_PRESENT_HUGE_REFRESH:
		refresh = UINT32_MAX;
		break;
	default:
		break;
	}
	struct wl_resource *feedback, *next;
	wl_resource_for_each_safe(feedback, next, feedbacks) {
		tc_output_for_each_client_resource(output, wl_resource_get_client(feedback), send_sync_output, feedback);
		wp_presentation_feedback_send_presented(feedback, (uint32_t)(seconds >> 32), (uint32_t)seconds, nanoseconds,
							refresh, (uint32_t)(output->sequence >> 32),
							(uint32_t)output->sequence, 0);
		wl_resource_destroy(feedback);
	}
}

static void discard_orphans(void *data)
{
	struct tc_server *server = data;
	server->orphan_idle = NULL;
	tc_presentation_discard(server, &server->orphan_feedbacks);
}

void tc_presentation_orphan(struct tc_server *server, struct wl_list *feedbacks)
{
	if (wl_list_empty(feedbacks))
		return;
	wl_list_insert_list(server->orphan_feedbacks.prev, feedbacks);
	wl_list_init(feedbacks);
	/* Later, from the loop: the surface may be going because its client is. */
	if (!server->orphan_idle)
		server->orphan_idle = wl_event_loop_add_idle(server->loop, discard_orphans, server);
}

static void presentation_feedback(struct wl_client *client, struct wl_resource *resource,
				  struct wl_resource *surface_resource, uint32_t id)
{
	struct tc_surface *surface = tc_surface_from_resource(surface_resource);
	struct wl_resource *feedback = wl_resource_create(client, &wp_presentation_feedback_interface,
							  wl_resource_get_version(resource), id);
	if (!feedback) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(feedback, NULL, NULL, feedback_destroyed);
	wl_list_insert(surface->pending_feedbacks.prev, wl_resource_get_link(feedback));
}

static void presentation_destroy(struct wl_client *client, struct wl_resource *resource)
{
	(void)client;
	wl_resource_destroy(resource);
}

static const struct wp_presentation_interface presentation_requests = {
	.destroy = presentation_destroy,
	.feedback = presentation_feedback,
};

static void bind_presentation(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct tc_server *server = data;
	struct wl_resource *resource = wl_resource_create(client, &wp_presentation_interface, (int)version, id);
	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &presentation_requests, server, NULL);
	wp_presentation_send_clock_id(resource, server->options.presentation_clock);
	tc_log(server, "bound wp_presentation v%u clock %u", version, server->options.presentation_clock);
}

void tc_presentation_create(struct tc_server *server)
{
	wl_global_create(server->display, &wp_presentation_interface, 1, server, bind_presentation);
}
