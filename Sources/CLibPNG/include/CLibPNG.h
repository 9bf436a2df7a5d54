#ifndef KEYFRAME_CLIBPNG_H
#define KEYFRAME_CLIBPNG_H
/* Placeholder: the libpng shim is written by the rendering issue. */
int keyframe_png_placeholder(void);
#endif
