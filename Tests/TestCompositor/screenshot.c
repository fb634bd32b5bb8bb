/* screenshot OUTPUT FILE: the last committed buffer of the window on OUTPUT, as binary PPM. */
#include "compositor.h"

#include <stdlib.h>
#include <string.h>
#include <wayland-server-protocol.h>

/* Byte offsets of red, green and blue in a little-endian 32-bit pixel, or false. */
static bool channel_offsets(uint32_t format, int *red, int *green, int *blue)
{
	switch (format) {
	case WL_SHM_FORMAT_ARGB8888:
	case WL_SHM_FORMAT_XRGB8888: /* memory order B, G, R, A */
		*red = 2, *green = 1, *blue = 0;
		return true;
	case WL_SHM_FORMAT_ABGR8888:
	case WL_SHM_FORMAT_XBGR8888: /* memory order R, G, B, A */
		*red = 0, *green = 1, *blue = 2;
		return true;
	default:
		return false;
	}
}

static bool write_ppm(const struct tc_surface *surface, const char *path, int red, int green, int blue)
{
	FILE *file = fopen(path, "wb");
	if (!file)
		return false;
	size_t row_size = (size_t)surface->pixel_width * 3;
	uint8_t *row = malloc(row_size);
	bool ok = row && fprintf(file, "P6\n%d %d\n255\n", surface->pixel_width, surface->pixel_height) > 0;
	for (int32_t y = 0; ok && y < surface->pixel_height; y++) {
		const uint8_t *source = surface->pixels + (size_t)y * (size_t)surface->pixel_stride;
		for (int32_t x = 0; x < surface->pixel_width; x++) {
			row[x * 3 + 0] = source[x * 4 + red];
			row[x * 3 + 1] = source[x * 4 + green];
			row[x * 3 + 2] = source[x * 4 + blue];
		}
		ok = fwrite(row, 1, row_size, file) == row_size;
	}
	free(row);
	return fclose(file) == 0 && ok;
}

void tc_screenshot(struct tc_server *server, const char *output_name, const char *path)
{
	char name[TC_TEXT_MAX * 4];
	tc_escaped(output_name, name, sizeof name);
	struct tc_output *output = tc_output_find_by_name(server, output_name);
	struct tc_surface *surface = output ? tc_surface_on_output(server, output) : NULL;
	int red, green, blue;
	if (!surface || !surface->has_pixels || !channel_offsets(surface->pixel_format, &red, &green, &blue) ||
	    (int64_t)surface->pixel_stride < (int64_t)surface->pixel_width * 4) {
		tc_say(server, "screenshot %s none", name);
		return;
	}
	if (!write_ppm(surface, path, red, green, blue)) {
		tc_log(server, "screenshot %s: cannot write %s", name, path);
		tc_say(server, "screenshot %s none", name);
		return;
	}
	tc_say(server, "screenshot %s %s %dx%d", name, path, surface->pixel_width, surface->pixel_height);
}
