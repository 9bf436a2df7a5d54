/*
 * The system's libpng 1.6 (and zlib), found through pkg-config (`libpng16`). Only CLibPNG depends on this
 * module; its header and library search paths come from pkg-config, so Homebrew's libpng on macOS works too.
 */
#include <png.h>
#include <zlib.h>
