// FreeType 2, for the text glout draws (plot labels, the dashboard, a show's text), and
// fontconfig, which finds a show's fonts by name.
#ifndef CFREETYPE_H
#define CFREETYPE_H
#include <ft2build.h>
#include FT_FREETYPE_H
#include <fontconfig/fontconfig.h>
#endif
