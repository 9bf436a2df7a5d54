#ifndef KEYFRAME_FRAME_DEFLATE_H
#define KEYFRAME_FRAME_DEFLATE_H

/*
 * The fast preset's compressor: PNG image data (filtered rows in a zlib stream) written without zlib's deflate,
 * specialised for rendered frames — large transparent or flat areas, and sprites whose rows differ little from the
 * rows above them. Private to the shim: libpng still writes the signature, IHDR, the IDAT chunk around this stream
 * and IEND, and every decoder reads the result as any other PNG.
 *
 * Per row: the span of bytes that differ from zero in this row or the row above (everything outside it filters to
 * zero whatever the filter) is filtered with each allowed filter, and the filter with the smallest sum of absolute
 * values is kept. The filtered bytes become literals, runs of zero bytes (matches at distance 1) and repeats of the
 * previous pixel (matches at distance `bpp`). Tokens are gathered into blocks of whole rows, each coded with its own
 * Huffman tables (dynamic deflate blocks), so the codes follow the content down the frame. Zero runs and the Adler-32
 * of zero bytes cost nothing per byte. The output depends only on the pixels and the settings: no timing, threading
 * or CPU feature changes a byte.
 */

#include <stddef.h>
#include <stdint.h>

typedef struct kf_frame_deflate kf_frame_deflate;

/* A compressor for images with rows of `row_bytes` bytes of `bpp`-byte pixels (1–4), choosing among `filters`
 * (PNG_FILTER_NONE … PNG_FILTER_PAETH bits). Reusable for any number of images; NULL when out of memory. */
kf_frame_deflate *kf_frame_deflate_create(void);
void kf_frame_deflate_free(kf_frame_deflate *deflate);

/* Starts an image, using at most the `vectors` instructions (vectors.h's KF_VECTORS_*; more than the CPU has: what
 * it has; the bytes are the same with any).
 * Returns 0, or nonzero when out of memory. */
int kf_frame_deflate_begin(kf_frame_deflate *deflate, size_t row_bytes, unsigned bpp, int filters, int vectors);

/*
 * The next row's pixels. `convert` (may be NULL) turns `count` bytes of `source` — whole pixels, where the row is not
 * zero — into the pixels stored (premultiplied → straight, with `context`); without it the bytes are stored as they
 * are. An all-zero pixel must stay all zero. Returns 0, or nonzero when out of memory.
 */
typedef void (*kf_frame_row_convert)(const uint8_t *source, uint8_t *destination, size_t count, const void *context);
int kf_frame_deflate_row(kf_frame_deflate *deflate, const uint8_t *source, kf_frame_row_convert convert,
                         const void *context);

/* Ends the image; `*stream` and `*count` are the zlib stream, owned by `deflate` until its next use. Returns 0, or
 * nonzero when out of memory. */
int kf_frame_deflate_end(kf_frame_deflate *deflate, const uint8_t **stream, size_t *count);

#endif
