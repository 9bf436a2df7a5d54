// rlottie's C API (Debian/Ubuntu: librlottie-dev), used only by tests and benchmarks to play Keyframe's Lottie exports.
#include <rlottie_capi.h>
