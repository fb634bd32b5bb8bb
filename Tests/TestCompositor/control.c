/* The control FIFO (--control PATH): newline-terminated commands, read in the event loop. */
#include "compositor.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static struct {
	struct tc_server *server;
	const char *path;
	int read_fd, keep_open_fd; /* the second keeps a writer, so EOF never comes */
	struct wl_event_source *source;
	char buffer[16384];
	size_t used;
	bool created;
} control = { .read_fd = -1, .keep_open_fd = -1 };

static void complain(struct tc_server *server, const char *line, const char *why)
{
	fprintf(stderr, "TestCompositor: control: %s: %s\n", why, line);
	tc_log(server, "control error: %s: %s", why, line);
}

static bool parse_int32(const char *text, int32_t *value)
{
	if (!text)
		return false;
	char *end = NULL;
	errno = 0;
	long long parsed = strtoll(text, &end, 10);
	if (errno || *end || end == text)
		return false;
	*value = (int32_t)(uint32_t)(uint64_t)parsed;
	return true;
}

static bool parse_double(const char *text, double *value)
{
	if (!text)
		return false;
	char *end = NULL;
	*value = strtod(text, &end);
	return end != text && *end == '\0';
}

/* The rest of the line after the first n words, trimmed. */
static const char *rest_after_words(const char *line, int n)
{
	const char *p = line;
	for (int i = 0; i < n; i++) {
		while (*p == ' ' || *p == '\t')
			p++;
		while (*p && *p != ' ' && *p != '\t')
			p++;
	}
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static void touch_command(struct tc_server *server, const char *line, char **words, int count)
{
	char error[256] = "bad touch command";
	int32_t id;
	double x, y;
	bool ok = false;
	const char *verb = count > 1 ? words[1] : "";
	if (strcmp(verb, "down") == 0 && count == 6 && parse_int32(words[2], &id) && parse_double(words[4], &x) &&
	    parse_double(words[5], &y))
		ok = tc_touch_down(server, id, words[3], x, y, error, sizeof error);
	else if (strcmp(verb, "motion") == 0 && count == 5 && parse_int32(words[2], &id) &&
		 parse_double(words[3], &x) && parse_double(words[4], &y))
		ok = tc_touch_motion(server, id, x, y, error, sizeof error);
	else if (strcmp(verb, "up") == 0 && count == 3 && parse_int32(words[2], &id))
		ok = tc_touch_up(server, id, error, sizeof error);
	else if (strcmp(verb, "frame") == 0 && count == 2)
		tc_touch_frame(server), ok = true;
	else if (strcmp(verb, "cancel") == 0 && count == 2)
		tc_touch_cancel(server), ok = true;
	if (!ok)
		complain(server, line, error);
}

static void add_output_command(struct tc_server *server, const char *line, const char *spec_text)
{
	struct tc_output_spec spec;
	char error[256];
	tc_output_spec_default(&spec, (int)server->next_output_id + 1, 1280, 720);
	if (!tc_output_spec_parse(&spec, spec_text, error, sizeof error)) {
		complain(server, line, error);
		return;
	}
	if (!tc_output_create(server, &spec))
		complain(server, line, "could not create the output");
}

static void execute(struct tc_server *server, const char *line)
{
	char copy[sizeof control.buffer];
	snprintf(copy, sizeof copy, "%s", line);
	char *words[8];
	int count = 0;
	char *saved = NULL;
	for (char *word = strtok_r(copy, " \t", &saved); word && count < 8; word = strtok_r(NULL, " \t", &saved))
		words[count++] = word;
	if (count == 0)
		return;
	tc_log(server, "control %s", line);
	if (strcmp(words[0], "touch") == 0) {
		touch_command(server, line, words, count);
	} else if (strcmp(words[0], "screenshot") == 0 && count >= 3) {
		tc_screenshot(server, words[1], rest_after_words(line, 2));
	} else if (strcmp(words[0], "add-output") == 0) {
		add_output_command(server, line, rest_after_words(line, 1));
	} else if (strcmp(words[0], "remove-output") == 0 && count == 2) {
		struct tc_output *output = tc_output_find_by_name(server, words[1]);
		if (output)
			tc_output_remove(output);
		else
			complain(server, line, "no such output");
	} else if (strcmp(words[0], "ping") == 0 && count == 1) {
		tc_shell_ping_all(server);
	} else if (strcmp(words[0], "quit") == 0 && count == 1) {
		server->exit_status = 0;
		wl_display_terminate(server->display);
	} else {
		complain(server, line, "unknown command");
	}
}

static int readable(int fd, uint32_t mask, void *data)
{
	(void)mask;
	struct tc_server *server = data;
	for (;;) {
		if (control.used == sizeof control.buffer) {
			complain(server, "(a line too long)", "dropped");
			control.used = 0;
		}
		ssize_t got = read(fd, control.buffer + control.used, sizeof control.buffer - control.used);
		if (got <= 0)
			break;
		control.used += (size_t)got;
		char *start = control.buffer;
		char *newline;
		while ((newline = memchr(start, '\n', control.used - (size_t)(start - control.buffer)))) {
			*newline = '\0';
			if (newline > start && newline[-1] == '\r')
				newline[-1] = '\0';
			execute(server, start);
			start = newline + 1;
		}
		control.used -= (size_t)(start - control.buffer);
		memmove(control.buffer, start, control.used);
	}
	return 0;
}

bool tc_control_open(struct tc_server *server, const char *path)
{
	struct stat status;
	if (mkfifo(path, 0600) == 0) {
		control.created = true;
	} else if (errno != EEXIST || stat(path, &status) != 0 || !S_ISFIFO(status.st_mode)) {
		fprintf(stderr, "TestCompositor: cannot make the FIFO %s: %s\n", path, strerror(errno ? errno : EEXIST));
		return false;
	}
	control.server = server;
	control.path = path;
	control.read_fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (control.read_fd >= 0)
		control.keep_open_fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (control.read_fd < 0 || control.keep_open_fd < 0) {
		fprintf(stderr, "TestCompositor: cannot open the FIFO %s: %s\n", path, strerror(errno));
		tc_control_close(server);
		return false;
	}
	control.source = wl_event_loop_add_fd(server->loop, control.read_fd, WL_EVENT_READABLE, readable, server);
	return control.source != NULL;
}

void tc_control_close(struct tc_server *server)
{
	(void)server;
	if (control.source)
		wl_event_source_remove(control.source);
	if (control.read_fd >= 0)
		close(control.read_fd);
	if (control.keep_open_fd >= 0)
		close(control.keep_open_fd);
	if (control.created && control.path)
		unlink(control.path);
	control.source = NULL;
	control.read_fd = control.keep_open_fd = -1;
	control.created = false;
}
