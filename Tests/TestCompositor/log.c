/* The event log (--log) and the lines tests read on stdout. */
#include "compositor.h"

#include <stdarg.h>
#include <string.h>
#include <time.h>

uint64_t tc_now_ns(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

static void write_line(FILE *file, const char *format, va_list arguments)
{
	vfprintf(file, format, arguments);
	fputc('\n', file);
	fflush(file);
}

void tc_log(struct tc_server *server, const char *format, ...)
{
	if (!server->log)
		return;
	va_list arguments;
	va_start(arguments, format);
	write_line(server->log, format, arguments);
	va_end(arguments);
}

void tc_say(struct tc_server *server, const char *format, ...)
{
	va_list arguments;
	va_start(arguments, format);
	write_line(stdout, format, arguments);
	va_end(arguments);
	if (server->log && !server->log_is_stdout) {
		va_start(arguments, format);
		write_line(server->log, format, arguments);
		va_end(arguments);
	}
}

void tc_post_error(struct tc_server *server, struct wl_resource *resource, uint32_t code, const char *format, ...)
{
	char message[512];
	va_list arguments;
	va_start(arguments, format);
	vsnprintf(message, sizeof message, format, arguments);
	va_end(arguments);
	tc_log(server, "error %s#%u code %u: %s", wl_resource_get_class(resource), wl_resource_get_id(resource), code,
	       message);
	wl_resource_post_error(resource, code, "%s", message);
}

const char *tc_escaped(const char *text, char *buffer, size_t size)
{
	size_t used = 0;
	for (const unsigned char *p = (const unsigned char *)text; *p && used + 5 < size; p++) {
		if (*p >= 0x20 && *p < 0x7f && *p != '\\')
			buffer[used++] = (char)*p;
		else
			used += (size_t)snprintf(buffer + used, size - used, "\\x%02x", *p);
	}
	buffer[used] = '\0';
	return buffer;
}

static struct tc_server *libwayland_log_server;

__attribute__((format(printf, 1, 0))) static void libwayland_log(const char *format, va_list arguments)
{
	char line[512];
	vsnprintf(line, sizeof line, format, arguments);
	size_t length = strlen(line);
	if (length > 0 && line[length - 1] == '\n')
		line[length - 1] = '\0';
	fprintf(stderr, "TestCompositor: libwayland: %s\n", line);
	if (libwayland_log_server && libwayland_log_server->log && libwayland_log_server->log != stderr)
		tc_log(libwayland_log_server, "libwayland: %s", line);
}

void tc_log_capture_libwayland(struct tc_server *server)
{
	libwayland_log_server = server;
	wl_log_set_handler_server(libwayland_log);
}
