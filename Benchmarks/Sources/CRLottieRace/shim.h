// rlottie's C API (Debian/Ubuntu: librlottie-dev), for the Lottie race benchmark only.
#include <rlottie_capi.h>
