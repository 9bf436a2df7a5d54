#include "CLibPNG.h"
int keyframe_png_placeholder(void) { return 0; }
