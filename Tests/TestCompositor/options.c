/* The command line: every fault the compositor can inject is chosen here. */
#include "compositor.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
	"usage: TestCompositor [OPTION...]\n"
	"A fault-injecting Wayland compositor for glout's tests.\n"
	"\n"
	"  --socket NAME                 socket name in $XDG_RUNTIME_DIR (default: first free wayland-N)\n"
	"  --output SPEC                 an output (repeatable); SPEC is key=value,... with keys\n"
	"                                name description make model (percent-decoded: %0A, %FF...)\n"
	"                                width height refresh(mHz) scale transform x y\n"
	"                                physical_width physical_height subpixel\n"
	"                                logical_x logical_y logical_width logical_height\n"
	"                                version(1..4) done(yes|no) modes(WxH@mHz;WxH@mHz)\n"
	"                                (default: one output TEST-1 1280x720@60000)\n"
	"  --outputs-count N             N outputs TEST-1..TEST-N of 640x480@60000, side by side\n"
	"  --compositor-version N        wl_compositor version 1..6 (default 4)\n"
	"  --configure WxH               the size of every xdg_toplevel.configure\n"
	"  --no-configure                never send a configure\n"
	"  --configure-storm N           after the first ack, N more configures back to back\n"
	"  --configure-storm-sizes LIST  their sizes, 'WxH;WxH' (cycled)\n"
	"  --frame-callbacks MODE        normal|never|immediate|odd-times\n"
	"  --presentation MODE           normal|never|discarded|huge-seconds|bad-nsec|backwards|\n"
	"                                zero-refresh|huge-refresh\n"
	"  --presentation-clock N        the wp_presentation.clock_id value (default CLOCK_MONOTONIC)\n"
	"  --release MODE                normal|never (wl_buffer.release)\n"
	"  --faults-on NAME              --no-configure and --release never only for windows on\n"
	"                                output NAME (default: every window)\n"
	"  --fractional-scale N          wp_fractional_scale_v1.preferred_scale, in 120ths\n"
	"  --preferred-buffer-scale N    wl_surface.preferred_buffer_scale (wl_compositor 6)\n"
	"  --preferred-transform N       wl_surface.preferred_buffer_transform (wl_compositor 6)\n"
	"  --remove-output-at MOMENT NAME  remove output NAME at MOMENT of the first window's set-up:\n"
	"                                bind|xdg-output|xdg-surface|toplevel|fullscreen|configure|\n"
	"                                ack|first-commit|frame\n"
	"  --readd-after-ms N            add the removed output back after N ms\n"
	"  --ping-every-ms N             xdg_wm_base.ping every N ms (pong lines on stdout)\n"
	"  --late-tick EVERY,MS          every EVERYth tick of each output comes MS ms late, and the\n"
	"                                ticks after it are timed from it (as headless wlroots)\n"
	"  --seat-capabilities LIST      touch,pointer,keyboard or none (default touch)\n"
	"  --without GLOBAL              leave out xdg-output|presentation|viewporter|\n"
	"                                fractional-scale|seat (repeatable)\n"
	"  --log FILE|stdout|stderr      one line per notable event\n"
	"  --control PATH                a FIFO of commands (see README.md)\n"
	"  --help                        this text\n";

__attribute__((noreturn, format(printf, 1, 2))) static void usage_error(const char *format, ...)
{
	va_list arguments;
	va_start(arguments, format);
	fprintf(stderr, "TestCompositor: ");
	vfprintf(stderr, format, arguments);
	fprintf(stderr, "\n\n%s", usage_text);
	va_end(arguments);
	exit(2);
}

/* A whole decimal int64, or false. */
static bool parse_int64(const char *text, int64_t *value)
{
	if (!text || !*text)
		return false;
	char *end = NULL;
	errno = 0;
	long long parsed = strtoll(text, &end, 10);
	if (errno != 0 || *end != '\0')
		return false;
	*value = parsed;
	return true;
}

/* As the protocol's int32 truncates an int64: 4294967295 becomes -1. */
static int32_t as_int32(int64_t value)
{
	return (int32_t)(uint32_t)(uint64_t)value;
}

static uint32_t as_uint32(int64_t value)
{
	return (uint32_t)(uint64_t)value;
}

/* "WxH" with int64 parts, truncated to int32. */
static bool parse_size(const char *text, struct tc_size *size)
{
	char copy[128];
	if (strlen(text) >= sizeof copy)
		return false;
	strcpy(copy, text);
	char *x = copy + (copy[0] == '-' ? 1 : 0);
	x = strchr(x, 'x');
	if (!x)
		return false;
	*x = '\0';
	int64_t width, height;
	if (!parse_int64(copy, &width) || !parse_int64(x + 1, &height))
		return false;
	size->width = as_int32(width);
	size->height = as_int32(height);
	return true;
}

/* "WxH@mHz" */
static bool parse_mode(const char *text, struct tc_mode *mode)
{
	char copy[128];
	if (strlen(text) >= sizeof copy)
		return false;
	strcpy(copy, text);
	char *at = strchr(copy, '@');
	if (!at)
		return false;
	*at = '\0';
	struct tc_size size;
	int64_t refresh;
	if (!parse_size(copy, &size) || !parse_int64(at + 1, &refresh))
		return false;
	mode->width = size.width;
	mode->height = size.height;
	mode->refresh = as_int32(refresh);
	return true;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Percent-decodes text into out, so control bytes and invalid UTF-8 can be sent. */
static bool percent_decode(const char *text, char *out, size_t size)
{
	size_t used = 0;
	for (const char *p = text; *p; p++) {
		if (used + 1 >= size)
			return false;
		if (*p == '%' && hex_digit(p[1]) >= 0 && hex_digit(p[2]) >= 0) {
			out[used++] = (char)(hex_digit(p[1]) * 16 + hex_digit(p[2]));
			p += 2;
		} else {
			out[used++] = *p;
		}
	}
	out[used] = '\0';
	return true;
}

void tc_output_spec_default(struct tc_output_spec *spec, int index, int32_t width, int32_t height)
{
	memset(spec, 0, sizeof *spec);
	snprintf(spec->name, sizeof spec->name, "TEST-%d", index);
	strcpy(spec->make, "glout");
	strcpy(spec->model, "TestCompositor");
	spec->mode = (struct tc_mode){ width, height, 60000 };
	spec->scale = 1;
	spec->version = 4;
	spec->sends_done = true;
}

static bool fail(char *error, size_t error_size, const char *key, const char *value)
{
	snprintf(error, error_size, "bad value for %s: '%s'", key, value);
	return false;
}

/* Sets one key of an output SPEC. */
static bool set_spec_key(struct tc_output_spec *spec, const char *key, const char *value, char *error,
			 size_t error_size)
{
	struct text_key {
		const char *key;
		char *field;
		bool *has;
	} texts[] = {
		{ "name", spec->name, &spec->has_name },
		{ "description", spec->description, &spec->has_description },
		{ "make", spec->make, NULL },
		{ "model", spec->model, NULL },
	};
	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		if (strcmp(key, texts[i].key) != 0)
			continue;
		if (!percent_decode(value, texts[i].field, TC_TEXT_MAX))
			return fail(error, error_size, key, value);
		if (texts[i].has)
			*texts[i].has = true;
		return true;
	}
	struct number_key {
		const char *key;
		int32_t *field;
		bool *has;
	} numbers[] = {
		{ "width", &spec->mode.width, NULL },
		{ "height", &spec->mode.height, NULL },
		{ "refresh", &spec->mode.refresh, NULL },
		{ "scale", &spec->scale, NULL },
		{ "transform", &spec->transform, NULL },
		{ "subpixel", &spec->subpixel, NULL },
		{ "x", &spec->x, &spec->has_x },
		{ "y", &spec->y, &spec->has_y },
		{ "physical_width", &spec->physical_width, &spec->has_physical_width },
		{ "physical_height", &spec->physical_height, &spec->has_physical_height },
		{ "logical_x", &spec->logical_x, &spec->has_logical_x },
		{ "logical_y", &spec->logical_y, &spec->has_logical_y },
		{ "logical_width", &spec->logical_width, &spec->has_logical_width },
		{ "logical_height", &spec->logical_height, &spec->has_logical_height },
	};
	for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++) {
		if (strcmp(key, numbers[i].key) != 0)
			continue;
		int64_t number;
		if (!parse_int64(value, &number))
			return fail(error, error_size, key, value);
		*numbers[i].field = as_int32(number);
		if (numbers[i].has)
			*numbers[i].has = true;
		return true;
	}
	if (strcmp(key, "version") == 0) {
		int64_t version;
		if (!parse_int64(value, &version) || version < 1 || version > 4)
			return fail(error, error_size, key, value);
		spec->version = (uint32_t)version;
		return true;
	}
	if (strcmp(key, "done") == 0) {
		if (strcmp(value, "yes") != 0 && strcmp(value, "no") != 0)
			return fail(error, error_size, key, value);
		spec->sends_done = strcmp(value, "yes") == 0;
		return true;
	}
	if (strcmp(key, "modes") == 0) {
		char copy[1024];
		if (strlen(value) >= sizeof copy)
			return fail(error, error_size, key, value);
		strcpy(copy, value);
		spec->extra_mode_count = 0;
		char *saved = NULL;
		for (char *part = strtok_r(copy, ";", &saved); part; part = strtok_r(NULL, ";", &saved)) {
			if (spec->extra_mode_count == TC_MODES_MAX ||
			    !parse_mode(part, &spec->extra_modes[spec->extra_mode_count]))
				return fail(error, error_size, key, value);
			spec->extra_mode_count++;
		}
		return true;
	}
	snprintf(error, error_size, "unknown output key '%s'", key);
	return false;
}

bool tc_output_spec_parse(struct tc_output_spec *spec, const char *text, char *error, size_t error_size)
{
	char copy[4096];
	if (strlen(text) >= sizeof copy) {
		snprintf(error, error_size, "output spec too long");
		return false;
	}
	strcpy(copy, text);
	char *saved = NULL;
	for (char *part = strtok_r(copy, ",", &saved); part; part = strtok_r(NULL, ",", &saved)) {
		char *equals = strchr(part, '=');
		if (!equals) {
			snprintf(error, error_size, "output spec part '%s' is not key=value", part);
			return false;
		}
		*equals = '\0';
		if (!set_spec_key(spec, part, equals + 1, error, error_size))
			return false;
	}
	return true;
}

static int choose(const char *option, const char *value, const char *const *names)
{
	for (int i = 0; names[i]; i++)
		if (strcmp(value, names[i]) == 0)
			return i;
	usage_error("bad value for --%s: '%s'", option, value);
}

static int64_t number_option(const char *option, const char *value)
{
	int64_t number;
	if (!parse_int64(value, &number))
		usage_error("--%s wants a number, not '%s'", option, value);
	return number;
}

enum option_id {
	OPT_SOCKET = 256,
	OPT_OUTPUT,
	OPT_OUTPUTS_COUNT,
	OPT_COMPOSITOR_VERSION,
	OPT_CONFIGURE,
	OPT_NO_CONFIGURE,
	OPT_STORM,
	OPT_STORM_SIZES,
	OPT_FRAMES,
	OPT_PRESENTATION,
	OPT_PRESENTATION_CLOCK,
	OPT_RELEASE,
	OPT_FAULTS_ON,
	OPT_FRACTIONAL,
	OPT_BUFFER_SCALE,
	OPT_TRANSFORM,
	OPT_REMOVE_AT,
	OPT_READD,
	OPT_PING,
	OPT_LATE_TICK,
	OPT_SEAT_CAPS,
	OPT_WITHOUT,
	OPT_LOG,
	OPT_CONTROL,
	OPT_HELP,
};

static const struct option long_options[] = {
	{ "socket", required_argument, NULL, OPT_SOCKET },
	{ "output", required_argument, NULL, OPT_OUTPUT },
	{ "outputs-count", required_argument, NULL, OPT_OUTPUTS_COUNT },
	{ "compositor-version", required_argument, NULL, OPT_COMPOSITOR_VERSION },
	{ "configure", required_argument, NULL, OPT_CONFIGURE },
	{ "no-configure", no_argument, NULL, OPT_NO_CONFIGURE },
	{ "configure-storm", required_argument, NULL, OPT_STORM },
	{ "configure-storm-sizes", required_argument, NULL, OPT_STORM_SIZES },
	{ "frame-callbacks", required_argument, NULL, OPT_FRAMES },
	{ "presentation", required_argument, NULL, OPT_PRESENTATION },
	{ "presentation-clock", required_argument, NULL, OPT_PRESENTATION_CLOCK },
	{ "release", required_argument, NULL, OPT_RELEASE },
	{ "faults-on", required_argument, NULL, OPT_FAULTS_ON },
	{ "fractional-scale", required_argument, NULL, OPT_FRACTIONAL },
	{ "preferred-buffer-scale", required_argument, NULL, OPT_BUFFER_SCALE },
	{ "preferred-transform", required_argument, NULL, OPT_TRANSFORM },
	{ "remove-output-at", required_argument, NULL, OPT_REMOVE_AT },
	{ "readd-after-ms", required_argument, NULL, OPT_READD },
	{ "ping-every-ms", required_argument, NULL, OPT_PING },
	{ "late-tick", required_argument, NULL, OPT_LATE_TICK },
	{ "seat-capabilities", required_argument, NULL, OPT_SEAT_CAPS },
	{ "without", required_argument, NULL, OPT_WITHOUT },
	{ "log", required_argument, NULL, OPT_LOG },
	{ "control", required_argument, NULL, OPT_CONTROL },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

static const char *const frame_modes[] = { "normal", "never", "immediate", "odd-times", NULL };
static const char *const presentation_modes[] = { "normal",   "never",     "discarded",    "huge-seconds",
						  "bad-nsec", "backwards", "zero-refresh", "huge-refresh",
						  NULL };
static const char *const release_modes[] = { "normal", "never", NULL };
/* In the order of enum tc_moment, after TC_MOMENT_NONE. */
static const char *const moments[] = { "bind", "xdg-output",   "xdg-surface", "toplevel", "fullscreen",
				       "configure", "ack", "first-commit", "frame",       NULL };
static const char *const globals_to_leave_out[] = { "xdg-output", "presentation", "viewporter",
						    "fractional-scale", "seat", NULL };

const char *tc_moment_name(enum tc_moment moment)
{
	return moment == TC_MOMENT_NONE ? "none" : moments[moment - 1];
}

static void add_output(struct tc_options *options, const struct tc_output_spec *spec)
{
	struct tc_output_spec *grown = realloc(options->outputs, sizeof *grown * (size_t)(options->output_count + 1));
	if (!grown) {
		fprintf(stderr, "TestCompositor: out of memory\n");
		exit(1);
	}
	options->outputs = grown;
	options->outputs[options->output_count++] = *spec;
}

static uint32_t parse_capabilities(const char *value)
{
	if (strcmp(value, "none") == 0)
		return 0;
	char copy[128];
	if (strlen(value) >= sizeof copy)
		usage_error("bad value for --seat-capabilities: '%s'", value);
	strcpy(copy, value);
	uint32_t capabilities = 0;
	char *saved = NULL;
	for (char *part = strtok_r(copy, ",", &saved); part; part = strtok_r(NULL, ",", &saved)) {
		if (strcmp(part, "pointer") == 0)
			capabilities |= 1; /* WL_SEAT_CAPABILITY_POINTER */
		else if (strcmp(part, "keyboard") == 0)
			capabilities |= 2;
		else if (strcmp(part, "touch") == 0)
			capabilities |= 4;
		else
			usage_error("bad value for --seat-capabilities: '%s'", value);
	}
	return capabilities;
}

static void parse_storm_sizes(struct tc_options *options, const char *value)
{
	char copy[1024];
	if (strlen(value) >= sizeof copy)
		usage_error("bad value for --configure-storm-sizes: '%s'", value);
	strcpy(copy, value);
	options->storm_size_count = 0;
	char *saved = NULL;
	for (char *part = strtok_r(copy, ";", &saved); part; part = strtok_r(NULL, ";", &saved)) {
		if (options->storm_size_count == TC_SIZES_MAX ||
		    !parse_size(part, &options->storm_sizes[options->storm_size_count]))
			usage_error("bad value for --configure-storm-sizes: '%s'", value);
		options->storm_size_count++;
	}
}

void tc_options_parse(struct tc_options *options, int argc, char **argv)
{
	memset(options, 0, sizeof *options);
	options->compositor_version = 4;
	options->presentation_clock = 1; /* CLOCK_MONOTONIC */
	options->readd_after_ms = -1;
	options->seat_capabilities = 4; /* touch */
	int64_t outputs_count = -1; /* -1: not given */
	struct tc_output_spec *explicit_outputs = NULL;
	int explicit_count = 0;
	char error[256];

	opterr = 0;
	int id;
	while ((id = getopt_long(argc, argv, "+", long_options, NULL)) != -1) {
		int64_t number;
		switch (id) {
		case OPT_SOCKET:
			options->socket = optarg;
			break;
		case OPT_OUTPUT: {
			struct tc_output_spec spec;
			tc_output_spec_default(&spec, explicit_count + 1, 1280, 720);
			if (!tc_output_spec_parse(&spec, optarg, error, sizeof error))
				usage_error("--output: %s", error);
			struct tc_output_spec *grown = realloc(explicit_outputs, sizeof *grown * (size_t)(explicit_count + 1));
			if (!grown)
				exit(1);
			explicit_outputs = grown;
			explicit_outputs[explicit_count++] = spec;
			break;
		}
		case OPT_OUTPUTS_COUNT:
			outputs_count = number_option("outputs-count", optarg);
			if (outputs_count < 0 || outputs_count > 64)
				usage_error("--outputs-count must be 0..64, not '%s'", optarg);
			break;
		case OPT_COMPOSITOR_VERSION:
			number = number_option("compositor-version", optarg);
			if (number < 1 || number > 6)
				usage_error("--compositor-version must be 1..6, not '%s'", optarg);
			options->compositor_version = (uint32_t)number;
			break;
		case OPT_CONFIGURE:
			if (!parse_size(optarg, &options->configure_size))
				usage_error("--configure wants WxH, not '%s'", optarg);
			options->has_configure_size = true;
			break;
		case OPT_NO_CONFIGURE:
			options->no_configure = true;
			break;
		case OPT_STORM:
			number = number_option("configure-storm", optarg);
			if (number < 0 || number > 1000000)
				usage_error("--configure-storm must be 0..1000000, not '%s'", optarg);
			options->storm_count = (uint32_t)number;
			break;
		case OPT_STORM_SIZES:
			parse_storm_sizes(options, optarg);
			break;
		case OPT_FRAMES:
			options->frames = (enum tc_frame_mode)choose("frame-callbacks", optarg, frame_modes);
			break;
		case OPT_PRESENTATION:
			options->presentation =
				(enum tc_presentation_mode)choose("presentation", optarg, presentation_modes);
			break;
		case OPT_PRESENTATION_CLOCK:
			options->presentation_clock = as_uint32(number_option("presentation-clock", optarg));
			break;
		case OPT_RELEASE:
			options->release_never = choose("release", optarg, release_modes) == 1;
			break;
		case OPT_FAULTS_ON:
			if (!percent_decode(optarg, options->faults_on, sizeof options->faults_on) || !options->faults_on[0])
				usage_error("--faults-on: bad NAME '%s'", optarg);
			break;
		case OPT_FRACTIONAL:
			options->fractional_scale = as_uint32(number_option("fractional-scale", optarg));
			options->has_fractional_scale = true;
			break;
		case OPT_BUFFER_SCALE:
			options->preferred_buffer_scale = as_int32(number_option("preferred-buffer-scale", optarg));
			options->has_preferred_buffer_scale = true;
			break;
		case OPT_TRANSFORM:
			options->preferred_transform = as_uint32(number_option("preferred-transform", optarg));
			options->has_preferred_transform = true;
			break;
		case OPT_REMOVE_AT:
			options->remove_at = (enum tc_moment)(choose("remove-output-at", optarg, moments) + 1);
			if (optind >= argc || argv[optind][0] == '-')
				usage_error("--remove-output-at %s wants an output NAME after it", optarg);
			if (!percent_decode(argv[optind], options->remove_name, sizeof options->remove_name))
				usage_error("--remove-output-at: bad NAME '%s'", argv[optind]);
			optind++;
			break;
		case OPT_READD:
			options->readd_after_ms = number_option("readd-after-ms", optarg);
			if (options->readd_after_ms < 0 || options->readd_after_ms > INT32_MAX)
				usage_error("--readd-after-ms must be 0..2147483647, not '%s'", optarg);
			break;
		case OPT_PING:
			options->ping_every_ms = number_option("ping-every-ms", optarg);
			if (options->ping_every_ms < 1 || options->ping_every_ms > INT32_MAX)
				usage_error("--ping-every-ms must be 1..2147483647, not '%s'", optarg);
			break;
		case OPT_LATE_TICK: {
			const char *comma = strchr(optarg, ',');
			char every[32];
			if (!comma || (size_t)(comma - optarg) >= sizeof every)
				usage_error("--late-tick takes EVERY,MS, not '%s'", optarg);
			memcpy(every, optarg, (size_t)(comma - optarg));
			every[comma - optarg] = '\0';
			options->late_tick_every = number_option("late-tick", every);
			options->late_tick_ms = number_option("late-tick", comma + 1);
			if (options->late_tick_every < 1 || options->late_tick_every > INT32_MAX || options->late_tick_ms < 0
			    || options->late_tick_ms > 1000)
				usage_error("--late-tick takes EVERY 1..2147483647 and MS 0..1000, not '%s'", optarg);
			break;
		}
		case OPT_SEAT_CAPS:
			options->seat_capabilities = parse_capabilities(optarg);
			break;
		case OPT_WITHOUT:
			switch (choose("without", optarg, globals_to_leave_out)) {
			case 0: options->without_xdg_output = true; break;
			case 1: options->without_presentation = true; break;
			case 2: options->without_viewporter = true; break;
			case 3: options->without_fractional_scale = true; break;
			default: options->without_seat = true; break;
			}
			break;
		case OPT_LOG:
			options->log_path = optarg;
			break;
		case OPT_CONTROL:
			options->control_path = optarg;
			break;
		case OPT_HELP:
			fputs(usage_text, stdout);
			exit(0);
		default:
			usage_error("unknown option or missing value: '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);

	for (int64_t i = 0; i < outputs_count; i++) {
		struct tc_output_spec spec;
		tc_output_spec_default(&spec, (int)i + 1, 640, 480);
		add_output(options, &spec);
	}
	for (int i = 0; i < explicit_count; i++) {
		/* Unnamed --output specs follow the counted ones: TEST-(N+1)... */
		if (!explicit_outputs[i].has_name && outputs_count > 0)
			snprintf(explicit_outputs[i].name, TC_TEXT_MAX, "TEST-%d", (int)outputs_count + i + 1);
		add_output(options, &explicit_outputs[i]);
	}
	free(explicit_outputs);
	if (options->output_count == 0 && outputs_count < 0) {
		struct tc_output_spec spec;
		tc_output_spec_default(&spec, 1, 1280, 720);
		add_output(options, &spec);
	}
}

void tc_options_release(struct tc_options *options)
{
	free(options->outputs);
	options->outputs = NULL;
	options->output_count = 0;
}
