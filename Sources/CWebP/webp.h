/*
 * The system's libwebp and libwebpmux (its animation encoder, WebPAnimEncoder), found through pkg-config
 * (`libwebpmux`, which requires `libwebp`). Only KeyframeAnimated depends on this module.
 */
#include <webp/encode.h>
#include <webp/mux.h>
