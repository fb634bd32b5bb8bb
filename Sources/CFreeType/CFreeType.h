// FreeType 2, for the text glout draws (plot labels, the dashboard).
#ifndef CFREETYPE_H
#define CFREETYPE_H
#include <ft2build.h>
#include FT_FREETYPE_H
#endif
