#ifndef KEYFRAME_VECTORS_H
#define KEYFRAME_VECTORS_H

/*
 * Vector instructions the encoder's pixel loops may use (private to the shim). Every path computes the same integers,
 * so the choice changes the speed only, never a byte; callers may limit it (KF_PNG_VECTORS_*) so that tests compare
 * the paths.
 */

enum { KF_VECTORS_NONE = 0, KF_VECTORS_SSE2 = 1, KF_VECTORS_AVX2 = 2 };

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define KF_X86 1
/* A function using AVX2, called only when the CPU has it. */
#define KF_AVX2 __attribute__((target("avx2")))
#else
#define KF_X86 0
#endif

/* The widest vector instructions this CPU runs (SSE2 on every x86-64, none elsewhere), at most `limit`. */
static inline int kf_vectors(int limit) {
#if KF_X86
    int available = __builtin_cpu_supports("avx2") ? KF_VECTORS_AVX2 : KF_VECTORS_SSE2;
#else
    int available = KF_VECTORS_NONE;
#endif
    return limit < available ? limit : available;
}

#endif
