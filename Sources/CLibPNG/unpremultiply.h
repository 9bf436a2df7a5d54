#ifndef KEYFRAME_UNPREMULTIPLY_H
#define KEYFRAME_UNPREMULTIPLY_H

/*
 * Premultiplied RGBA → straight RGBA, as the encoder stores pixels (private to the shim): each colour channel c of a
 * pixel with alpha a becomes min(255, (c · 255 + ⌊a / 2⌋) / a) (integer division), 0 when a is 0; alpha stays. Every
 * path computes exactly that.
 */

#include <stddef.h>
#include <stdint.h>

typedef struct kf_unpremultiply {
    uint32_t reciprocal[256];
    int vectors; /* KF_VECTORS_* */
} kf_unpremultiply;

/* Tables for kf_unpremultiply_row, using at most the `vectors` instructions (KF_VECTORS_*). */
void kf_unpremultiply_prepare(kf_unpremultiply *table, int vectors);

/* Converts `count` pixels of `source` into `destination`. */
void kf_unpremultiply_row(const kf_unpremultiply *table, const uint8_t *source, uint8_t *destination, size_t count);

#endif
