#ifndef KEYFRAME_CLIBPNG_H
#define KEYFRAME_CLIBPNG_H

/*
 * The one door to libpng. Every entry point installs its own error handler and jump buffer, so a
 * libpng error (corrupt, truncated or oversized input) returns a status code with libpng's message
 * instead of aborting the process. No libpng type appears in this header: Swift sees only these
 * plain C declarations. Not a stable API; only KeyframePNG may import it.
 */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Size of the buffer that receives an error message. */
#define KF_PNG_MESSAGE_CAPACITY 256

/* Filter bits, mirroring PNG_FILTER_NONE ... PNG_FILTER_PAETH. */
enum {
    KF_PNG_FILTER_NONE = 0x08,
    KF_PNG_FILTER_SUB = 0x10,
    KF_PNG_FILTER_UP = 0x20,
    KF_PNG_FILTER_AVG = 0x40,
    KF_PNG_FILTER_PAETH = 0x80,
    KF_PNG_FILTER_ALL = 0xF8
};

/* zlib strategies, mirroring Z_DEFAULT_STRATEGY ... Z_FIXED. */
enum {
    KF_PNG_STRATEGY_DEFAULT = 0,
    KF_PNG_STRATEGY_FILTERED = 1,
    KF_PNG_STRATEGY_HUFFMAN_ONLY = 2,
    KF_PNG_STRATEGY_RLE = 3,
    KF_PNG_STRATEGY_FIXED = 4
};

/* What compresses the image data. */
enum {
    KF_PNG_COMPRESSOR_ZLIB = 0,  /* zlib's deflate with compression_level and strategy */
    KF_PNG_COMPRESSOR_FRAMES = 1 /* Keyframe's encoder for rendered frames (frame_deflate.h); not interlaced */
};

/* The widest vector instructions the encoder may use. The bytes written never depend on it: every path computes the
 * same integers (tests compare them); only the speed does. */
enum {
    KF_PNG_VECTORS_BEST = 0, /* the widest this CPU has */
    KF_PNG_VECTORS_NONE = 1, /* plain C */
    KF_PNG_VECTORS_SSE2 = 2, /* at most SSE2 (x86-64) */
    KF_PNG_VECTORS_AVX2 = 3  /* at most AVX2 (x86-64) */
};

/* Pixel layouts the encoder accepts (8 bits per sample). */
enum {
    KF_PNG_LAYOUT_RGBA_PREMULTIPLIED = 0, /* converted to straight RGBA row by row */
    KF_PNG_LAYOUT_RGBA = 1,
    KF_PNG_LAYOUT_RGB = 2,
    KF_PNG_LAYOUT_GRAY = 3,
    KF_PNG_LAYOUT_GRAY_ALPHA = 4
};

typedef struct kf_png_encode_options {
    int compression_level; /* 0 ... 9 */
    int filters;           /* KF_PNG_FILTER_* bits */
    int strategy;          /* KF_PNG_STRATEGY_* */
    int layout;            /* KF_PNG_LAYOUT_* of the input pixels */
    int interlaced;        /* nonzero: Adam7 (always zlib) */
    int compressor;        /* KF_PNG_COMPRESSOR_* */
    int vectors;           /* KF_PNG_VECTORS_*: the widest vector instructions the encoder may use */
} kf_png_encode_options;

/* A growable output buffer owned by C, with the encoder's working memory; reuse it across frames, release it with
 * kf_png_buffer_free. Start from all zeros. */
typedef struct kf_png_buffer {
    uint8_t *bytes;
    size_t count;
    size_t capacity;
    void *workspace;
} kf_png_buffer;

void kf_png_buffer_free(kf_png_buffer *buffer);

/*
 * Encodes `height` rows of `width` pixels, `stride` bytes apart, into `out` (its count is reset first).
 * Returns 0 on success; otherwise nonzero with a message in `message`.
 */
int kf_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                  const kf_png_encode_options *options, kf_png_buffer *out,
                  char *message, size_t message_capacity);

/* Limits applied while decoding; zero means "libpng's default". */
typedef struct kf_png_decode_limits {
    uint32_t max_width;
    uint32_t max_height;
    uint64_t max_pixels;
    size_t max_chunk_bytes;
} kf_png_decode_limits;

/* Header facts read before the pixels. */
typedef struct kf_png_info {
    uint32_t width;
    uint32_t height;
    int bit_depth;
    int color_type; /* PNG colour type: 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA */
    int interlaced;
    int has_trns;
} kf_png_info;

typedef struct kf_png_decoder kf_png_decoder;

/*
 * Parses the signature and header of an in-memory PNG. On success returns 0 and a decoder in `*decoder`
 * (release it with kf_png_decoder_free); otherwise nonzero with a message.
 */
int kf_png_decoder_open(const uint8_t *bytes, size_t count, const kf_png_decode_limits *limits,
                        kf_png_decoder **decoder, kf_png_info *info,
                        char *message, size_t message_capacity);

/*
 * Decodes every pixel as 8-bit RGBA into `destination` (rows `stride` bytes apart, at least width*4),
 * premultiplying colour by alpha when `premultiply` is nonzero, and reads to the end of the stream.
 * Returns 0 on success; otherwise nonzero with a message. Call at most once per decoder.
 */
int kf_png_decoder_read_rgba(kf_png_decoder *decoder, uint8_t *destination, size_t stride, int premultiply,
                             char *message, size_t message_capacity);

void kf_png_decoder_free(kf_png_decoder *decoder);

/* The libpng version the shim was compiled against, e.g. "1.6.39". */
const char *kf_png_library_version(void);

/*
 * zlib, which libpng links: raw deflate (RFC 1951, no zlib header) of `count` bytes at `level` (0 ... 9) into
 * `out` (allocated here; free with kf_png_buffer_free), and the CRC-32 of ZIP and PNG. Returns 0, or a nonzero
 * zlib status with its message.
 */
int kf_deflate_raw(const uint8_t *bytes, size_t count, int level, kf_png_buffer *out,
                   char *message, size_t message_capacity);
uint32_t kf_crc32(uint32_t crc, const uint8_t *bytes, size_t count);

#ifdef __cplusplus
}
#endif

#endif
