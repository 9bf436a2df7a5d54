/*
 * Premultiplied → straight alpha (see unpremultiply.h). Rendered frames are mostly empty or opaque, and such pixels
 * are the same in both forms: they are copied in groups, and only groups with another pixel are converted.
 */

#include "unpremultiply.h"

#include <string.h>

#include "vectors.h"

/*
 * Reciprocals for the scalar path: reciprocal[a] = ceil(2^24 / a). For a premultiplied channel c <= a,
 * n = c * 255 + a / 2 is below 255.5 * a, and (n * reciprocal[a]) >> 24 equals n / a exactly: the product overshoots
 * n / a by less than n / 2^24 < 255.5 * a / 2^24, which stays below 1 / a (the smallest gap between n / a and the next
 * integer) for every a up to 255. A channel above its alpha (not valid premultiplied data) only rounds up into the
 * clamp. The unit tests check all 65,536 (c, a) pairs against the division, on every path.
 */
void kf_unpremultiply_prepare(kf_unpremultiply *table, int vectors) {
    table->reciprocal[0] = 0;
    for (uint32_t a = 1; a < 256; a++) table->reciprocal[a] = ((1u << 24) + a - 1) / a;
    table->vectors = kf_vectors(vectors);
}

/* Whether a pixel is the same in both forms: fully opaque, or all zero. */
static inline int is_unchanged(uint32_t pixel) {
    return pixel == 0 || (pixel & 0xFF000000u) == 0xFF000000u;
}

/* One pixel, rounding to nearest. */
static inline void unpremultiply_pixel(const uint8_t *s, uint8_t *d, const uint32_t reciprocal[256]) {
    unsigned a = s[3];
    if (a == 255) {
        memcpy(d, s, 4);
    } else if (a == 0) {
        memset(d, 0, 4);
    } else {
        uint64_t m = reciprocal[a];
        unsigned half = a / 2u;
        for (int c = 0; c < 3; c++) {
            uint64_t value = (((uint64_t)s[c] * 255u + half) * m) >> 24;
            d[c] = (uint8_t)(value > 255u ? 255u : value);
        }
        d[3] = (uint8_t)a;
    }
}

static void unpremultiply_scalar(const uint32_t reciprocal[256], const uint8_t *source, uint8_t *destination,
                                 size_t count) {
    size_t i = 0;
    for (; i + 4 <= count; i += 4) {
        const uint8_t *s = source + 4 * i;
        uint8_t *d = destination + 4 * i;
        uint32_t p[4];
        memcpy(p, s, 16);
        if (is_unchanged(p[0]) & is_unchanged(p[1]) & is_unchanged(p[2]) & is_unchanged(p[3])) {
            memcpy(d, p, 16);
        } else {
            for (int k = 0; k < 4; k++) unpremultiply_pixel(s + 4 * k, d + 4 * k, reciprocal);
        }
    }
    for (; i < count; i++) unpremultiply_pixel(source + 4 * i, destination + 4 * i, reciprocal);
}

#if KF_X86
/* (c · 255 + ⌊a / 2⌋) / a for eight lanes of c and a, at most 255, through single-precision division: n and a are
 * exact in a float, and the correctly rounded quotient has the integer part of n / a, since n < 2^16 leaves a rounding
 * error below 2^−9 while a quotient that is not an integer is at least 1 / a ≥ 1 / 255 away from the next one. Lanes
 * with a = 0 come out negative (the conversion of an infinity or NaN), which the packing below turns into 0. */
KF_AVX2 static inline __m256i quotients(__m256i c, __m256i a) {
    __m256i n = _mm256_add_epi32(_mm256_sub_epi32(_mm256_slli_epi32(c, 8), c), _mm256_srli_epi32(a, 1));
    __m256i q = _mm256_cvttps_epi32(_mm256_div_ps(_mm256_cvtepi32_ps(n), _mm256_cvtepi32_ps(a)));
    return _mm256_min_epi32(q, _mm256_set1_epi32(255));
}

/* Four pixels. */
KF_AVX2 static inline __m128i unpremultiply4(__m128i s) {
    const __m128i alpha_index = _mm_setr_epi8(3, 3, 3, 3, 7, 7, 7, 7, 11, 11, 11, 11, 15, 15, 15, 15);
    const __m128i alpha_byte = _mm_set1_epi32((int)0xFF000000u);
    __m128i a = _mm_shuffle_epi8(s, alpha_index);
    __m256i low = quotients(_mm256_cvtepu8_epi32(s), _mm256_cvtepu8_epi32(a));
    __m256i high = quotients(_mm256_cvtepu8_epi32(_mm_srli_si128(s, 8)), _mm256_cvtepu8_epi32(_mm_srli_si128(a, 8)));
    /* 32 → 16 bits works within 128-bit halves: put the pixels back in order before 16 → 8. */
    __m256i words = _mm256_permute4x64_epi64(_mm256_packus_epi32(low, high), 0xD8);
    __m128i bytes = _mm_packus_epi16(_mm256_castsi256_si128(words), _mm256_extracti128_si256(words, 1));
    return _mm_or_si128(_mm_andnot_si128(alpha_byte, bytes), _mm_and_si128(alpha_byte, s));
}

KF_AVX2 static void unpremultiply_avx2(const uint32_t reciprocal[256], const uint8_t *source, uint8_t *destination,
                                       size_t count) {
    const __m256i alpha_byte = _mm256_set1_epi32((int)0xFF000000u);
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256i p = _mm256_loadu_si256((const __m256i *)(source + 4 * i));
        __m256i unchanged = _mm256_or_si256(_mm256_cmpeq_epi32(_mm256_and_si256(p, alpha_byte), alpha_byte),
                                            _mm256_cmpeq_epi32(p, _mm256_setzero_si256()));
        if (_mm256_movemask_epi8(unchanged) != -1) {
            p = _mm256_set_m128i(unpremultiply4(_mm256_extracti128_si256(p, 1)),
                                 unpremultiply4(_mm256_castsi256_si128(p)));
        }
        _mm256_storeu_si256((__m256i *)(destination + 4 * i), p);
    }
    for (; i < count; i++) unpremultiply_pixel(source + 4 * i, destination + 4 * i, reciprocal);
}
#endif

void kf_unpremultiply_row(const kf_unpremultiply *table, const uint8_t *source, uint8_t *destination, size_t count) {
#if KF_X86
    if (table->vectors >= KF_VECTORS_AVX2) {
        unpremultiply_avx2(table->reciprocal, source, destination, count);
        return;
    }
#endif
    unpremultiply_scalar(table->reciprocal, source, destination, count);
}
