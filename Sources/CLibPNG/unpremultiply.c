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
/*
 * Eight pixels, through single precision: each pixel's 1 / a once, then for each colour channel
 * q = ⌊(c · 255 + ⌊a / 2⌋) · (1 / a) + 2^−10⌋, at most 255. For c ≤ a the true quotient is at most 255.5, so the three
 * roundings (reciprocal, product, sum) err by less than 2^−14 in all; a quotient that is not an integer is at least
 * 1 / a ≥ 1 / 255 above the integer below it and as far below the next, so adding 2^−10 (more than the error, less
 * than 1 / 255 minus it) gives the exact integer part. For c > a (not valid premultiplied data) the quotient is at
 * least 256 and the computed one above 255, which clamps to 255, as the division does. Pixels with a = 0 become 0.
 * The tests check every (c, a) pair.
 */
KF_AVX2 static inline __m256i unpremultiply8(__m256i p) {
    const __m256i byte = _mm256_set1_epi32(0xFF), limit = _mm256_set1_epi32(255);
    const __m256 nudge = _mm256_set1_ps(1.0f / 1024.0f);
    __m256i a = _mm256_srli_epi32(p, 24);
    __m256 inverse = _mm256_div_ps(_mm256_set1_ps(1.0f), _mm256_cvtepi32_ps(a));
    __m256i half = _mm256_srli_epi32(a, 1);
    __m256i result = _mm256_slli_epi32(a, 24);
    for (int channel = 0; channel < 3; channel++) {
        __m256i c = _mm256_and_si256(_mm256_srli_epi32(p, 8 * channel), byte);
        __m256i n = _mm256_add_epi32(_mm256_sub_epi32(_mm256_slli_epi32(c, 8), c), half);
        __m256 q = _mm256_add_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(n), inverse), nudge);
        __m256i value = _mm256_min_epi32(_mm256_cvttps_epi32(q), limit);
        result = _mm256_or_si256(result, _mm256_slli_epi32(value, 8 * channel));
    }
    return _mm256_andnot_si256(_mm256_cmpeq_epi32(a, _mm256_setzero_si256()), result);
}

KF_AVX2 static void unpremultiply_avx2(const uint32_t reciprocal[256], const uint8_t *source, uint8_t *destination,
                                       size_t count) {
    const __m256i alpha_byte = _mm256_set1_epi32((int)0xFF000000u);
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256i p = _mm256_loadu_si256((const __m256i *)(source + 4 * i));
        __m256i unchanged = _mm256_or_si256(_mm256_cmpeq_epi32(_mm256_and_si256(p, alpha_byte), alpha_byte),
                                            _mm256_cmpeq_epi32(p, _mm256_setzero_si256()));
        if (_mm256_movemask_epi8(unchanged) != -1) p = unpremultiply8(p);
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
