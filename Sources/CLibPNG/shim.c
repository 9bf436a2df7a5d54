/*
 * libpng shim: owns setjmp/longjmp so that Swift never meets a libpng abort.
 *
 * Each public function sets a jump buffer before it calls into libpng. The error callback copies
 * libpng's message into the caller's buffer and jumps back; the function then frees what it owns
 * and returns a nonzero status. Everything that must survive the jump is allocated before setjmp
 * or lives in heap structs reached through pointers that do not change after setjmp.
 */

#include "CLibPNG.h"
#include "frame_deflate.h"
#include "unpremultiply.h"
#include "vectors.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

typedef struct kf_png_failure {
    jmp_buf jump;
    char *message;
    size_t message_capacity;
    char last_warning[128]; /* libpng explains some errors only in a preceding warning */
} kf_png_failure;

static void kf_copy_message(char *destination, size_t capacity, const char *text) {
    if (destination == NULL || capacity == 0) return;
    if (text == NULL) text = "unknown libpng error";
    size_t length = strlen(text);
    if (length >= capacity) length = capacity - 1;
    memcpy(destination, text, length);
    destination[length] = '\0';
}

static void kf_on_error(png_structp png, png_const_charp text) {
    kf_png_failure *failure = (kf_png_failure *)png_get_error_ptr(png);
    kf_copy_message(failure->message, failure->message_capacity, text);
    if (failure->last_warning[0] != '\0' && failure->message != NULL) {
        /* e.g. "Invalid IHDR data (Image width exceeds user limit in IHDR)" */
        size_t used = strlen(failure->message);
        if (used + 4 < failure->message_capacity) {
            snprintf(failure->message + used, failure->message_capacity - used, " (%s)", failure->last_warning);
        }
    }
    longjmp(failure->jump, 1);
}

static void kf_on_warning(png_structp png, png_const_charp text) {
    /* Warnings (e.g. a bad ancillary chunk that libpng skips) are not failures; keep the last one
       because libpng reports limit violations as a warning followed by a generic error. */
    kf_png_failure *failure = (kf_png_failure *)png_get_error_ptr(png);
    kf_copy_message(failure->last_warning, sizeof failure->last_warning, text);
}

const char *kf_png_library_version(void) { return PNG_LIBPNG_VER_STRING; }

/* MARK: - Encoding */

void kf_png_buffer_free(kf_png_buffer *buffer) {
    if (buffer == NULL) return;
    free(buffer->bytes);
    kf_frame_deflate_free((kf_frame_deflate *)buffer->workspace);
    buffer->bytes = NULL;
    buffer->count = 0;
    buffer->capacity = 0;
    buffer->workspace = NULL;
}

static void kf_write_bytes(png_structp png, png_bytep data, size_t length) {
    kf_png_buffer *out = (kf_png_buffer *)png_get_io_ptr(png);
    if (out->count + length > out->capacity) {
        size_t capacity = out->capacity < 4096 ? 4096 : out->capacity;
        while (capacity < out->count + length) capacity *= 2;
        uint8_t *grown = (uint8_t *)realloc(out->bytes, capacity);
        if (grown == NULL) png_error(png, "out of memory while writing PNG");
        out->bytes = grown;
        out->capacity = capacity;
    }
    memcpy(out->bytes + out->count, data, length);
    out->count += length;
}

static void kf_flush_bytes(png_structp png) { (void)png; }

/* KF_PNG_VECTORS_* as a KF_VECTORS_* limit (vectors.h). */
static int kf_vector_limit(int vectors) {
    switch (vectors) {
    case KF_PNG_VECTORS_NONE: return KF_VECTORS_NONE;
    case KF_PNG_VECTORS_SSE2: return KF_VECTORS_SSE2;
    default: return KF_VECTORS_AVX2;
    }
}

/* kf_unpremultiply_row as the frame compressor calls it: `count` bytes (whole pixels), the tables as context. */
static void kf_unpremultiply_bytes(const uint8_t *source, uint8_t *destination, size_t count, const void *context) {
    kf_unpremultiply_row((const kf_unpremultiply *)context, source, destination, count / 4);
}

int kf_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                  const kf_png_encode_options *options, kf_png_buffer *out,
                  char *message, size_t message_capacity) {
    if (pixels == NULL || out == NULL || options == NULL || width == 0 || height == 0) {
        kf_copy_message(message, message_capacity, "invalid arguments to PNG encoder");
        return 1;
    }
    int color_type;
    size_t channels;
    switch (options->layout) {
    case KF_PNG_LAYOUT_RGBA_PREMULTIPLIED:
    case KF_PNG_LAYOUT_RGBA: color_type = PNG_COLOR_TYPE_RGB_ALPHA; channels = 4; break;
    case KF_PNG_LAYOUT_RGB: color_type = PNG_COLOR_TYPE_RGB; channels = 3; break;
    case KF_PNG_LAYOUT_GRAY: color_type = PNG_COLOR_TYPE_GRAY; channels = 1; break;
    case KF_PNG_LAYOUT_GRAY_ALPHA: color_type = PNG_COLOR_TYPE_GRAY_ALPHA; channels = 2; break;
    default:
        kf_copy_message(message, message_capacity, "unknown pixel layout");
        return 1;
    }
    if (stride < channels * (size_t)width) {
        kf_copy_message(message, message_capacity, "row stride is shorter than a row");
        return 1;
    }
    out->count = 0;

    /* Allocated before setjmp so the error path can free it. */
    uint8_t *scratch = NULL;
    if (options->layout == KF_PNG_LAYOUT_RGBA_PREMULTIPLIED) {
        scratch = (uint8_t *)malloc(4 * (size_t)width);
        if (scratch == NULL) {
            kf_copy_message(message, message_capacity, "out of memory");
            return 1;
        }
    }
    const int vectors = kf_vector_limit(options->vectors);
    kf_unpremultiply unpremultiply;
    if (scratch != NULL) kf_unpremultiply_prepare(&unpremultiply, vectors);
    kf_png_failure failure;
    failure.last_warning[0] = '\0';
    failure.message = message;
    failure.message_capacity = message_capacity;

    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &failure, kf_on_error, kf_on_warning);
    if (png == NULL) {
        free(scratch);
        kf_copy_message(message, message_capacity, "png_create_write_struct failed");
        return 1;
    }
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_write_struct(&png, NULL);
        free(scratch);
        kf_copy_message(message, message_capacity, "png_create_info_struct failed");
        return 1;
    }
    if (setjmp(failure.jump)) {
        png_destroy_write_struct(&png, &info);
        free(scratch);
        return 1;
    }
    png_set_write_fn(png, out, kf_write_bytes, kf_flush_bytes);
    png_set_IHDR(png, info, width, height, 8, color_type,
                 options->interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, options->filters & PNG_ALL_FILTERS);
    int level = options->compression_level;
    png_set_compression_level(png, level < 0 ? 0 : (level > 9 ? 9 : level));
    png_set_compression_strategy(png, options->strategy);
    png_write_info(png, info);

    if (options->compressor == KF_PNG_COMPRESSOR_FRAMES && !options->interlaced) {
        /* libpng writes the container; the image data is compressed here (frame_deflate.h). */
        kf_frame_deflate *deflate = (kf_frame_deflate *)out->workspace;
        if (deflate == NULL) {
            deflate = kf_frame_deflate_create();
            if (deflate == NULL) png_error(png, "out of memory");
            out->workspace = deflate;
        }
        const size_t row_bytes = channels * (size_t)width;
        if (kf_frame_deflate_begin(deflate, row_bytes, (unsigned)channels, options->filters, vectors)) {
            png_error(png, "out of memory");
        }
        for (uint32_t y = 0; y < height; y++) {
            const uint8_t *row = pixels + (size_t)y * stride;
            /* The next row is asked for while this one is compressed (rows are often whole pages, where the
             * hardware's prefetching stops). */
            if (y + 1 < height) {
                for (size_t offset = 0; offset < row_bytes; offset += 64) __builtin_prefetch(row + stride + offset);
            }
            int failed = scratch != NULL ? kf_frame_deflate_row(deflate, row, kf_unpremultiply_bytes, &unpremultiply)
                                         : kf_frame_deflate_row(deflate, row, NULL, NULL);
            if (failed) png_error(png, "out of memory");
        }
        const uint8_t *stream = NULL;
        size_t count = 0;
        if (kf_frame_deflate_end(deflate, &stream, &count)) png_error(png, "out of memory");
        /* IDAT chunks of at most 1 GiB (a chunk holds less than 2 GiB). */
        for (size_t offset = 0; offset < count;) {
            size_t length = count - offset < ((size_t)1 << 30) ? count - offset : ((size_t)1 << 30);
            png_write_chunk(png, (png_const_bytep) "IDAT", stream + offset, length);
            offset += length;
        }
        png_write_chunk(png, (png_const_bytep) "IEND", NULL, 0);
        png_destroy_write_struct(&png, &info);
        free(scratch);
        return 0;
    }

    int passes = options->interlaced ? png_set_interlace_handling(png) : 1;
    for (int pass = 0; pass < passes; pass++) {
        for (uint32_t y = 0; y < height; y++) {
            const uint8_t *row = pixels + (size_t)y * stride;
            if (scratch != NULL) {
                kf_unpremultiply_row(&unpremultiply, row, scratch, width);
                png_write_row(png, scratch);
            } else {
                png_write_row(png, (png_const_bytep)row);
            }
        }
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    free(scratch);
    return 0;
}

/* MARK: - Decoding */

struct kf_png_decoder {
    kf_png_failure failure;
    png_structp png;
    png_infop info;
    const uint8_t *bytes;
    size_t count;
    size_t offset;
    png_bytep *rows;
    uint32_t width;
    uint32_t height;
    int consumed;
};

static void kf_read_bytes(png_structp png, png_bytep data, size_t length) {
    kf_png_decoder *decoder = (kf_png_decoder *)png_get_io_ptr(png);
    if (length > decoder->count - decoder->offset) {
        png_error(png, "unexpected end of data (truncated PNG)");
    }
    memcpy(data, decoder->bytes + decoder->offset, length);
    decoder->offset += length;
}

void kf_png_decoder_free(kf_png_decoder *decoder) {
    if (decoder == NULL) return;
    if (decoder->png != NULL) png_destroy_read_struct(&decoder->png, &decoder->info, NULL);
    free(decoder->rows);
    free(decoder);
}

int kf_png_decoder_open(const uint8_t *bytes, size_t count, const kf_png_decode_limits *limits,
                        kf_png_decoder **result, kf_png_info *info_out,
                        char *message, size_t message_capacity) {
    if (result == NULL || info_out == NULL) {
        kf_copy_message(message, message_capacity, "invalid arguments to PNG decoder");
        return 1;
    }
    *result = NULL;
    if (bytes == NULL || count < 8 || png_sig_cmp((png_const_bytep)bytes, 0, 8) != 0) {
        kf_copy_message(message, message_capacity, "not a PNG file (bad signature)");
        return 1;
    }
    kf_png_decoder *decoder = (kf_png_decoder *)calloc(1, sizeof(kf_png_decoder));
    if (decoder == NULL) {
        kf_copy_message(message, message_capacity, "out of memory");
        return 1;
    }
    decoder->failure.message = message;
    decoder->failure.message_capacity = message_capacity;
    decoder->bytes = bytes;
    decoder->count = count;
    decoder->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &decoder->failure, kf_on_error, kf_on_warning);
    if (decoder->png == NULL) {
        free(decoder);
        kf_copy_message(message, message_capacity, "png_create_read_struct failed");
        return 1;
    }
    decoder->info = png_create_info_struct(decoder->png);
    if (decoder->info == NULL) {
        kf_png_decoder_free(decoder);
        kf_copy_message(message, message_capacity, "png_create_info_struct failed");
        return 1;
    }
    if (setjmp(decoder->failure.jump)) {
        kf_png_decoder_free(decoder);
        return 1;
    }
    png_structp png = decoder->png;
    png_infop info = decoder->info;
    if (limits != NULL) {
        if (limits->max_width != 0 || limits->max_height != 0) {
            png_set_user_limits(png, limits->max_width ? limits->max_width : 0x7fffffffu,
                                limits->max_height ? limits->max_height : 0x7fffffffu);
        }
        if (limits->max_chunk_bytes != 0) png_set_chunk_malloc_max(png, limits->max_chunk_bytes);
    }
    png_set_read_fn(png, decoder, kf_read_bytes);
    png_read_info(png, info);

    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(png, info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    if (limits != NULL && limits->max_pixels != 0 && (uint64_t)width * (uint64_t)height > limits->max_pixels) {
        png_error(png, "image has more pixels than the configured limit");
    }
    info_out->width = width;
    info_out->height = height;
    info_out->bit_depth = bit_depth;
    info_out->color_type = color_type;
    info_out->interlaced = interlace != PNG_INTERLACE_NONE;
    info_out->has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    decoder->width = width;
    decoder->height = height;

    /* Normalise every colour type and depth to 8-bit RGBA. */
    png_set_expand(png);
    if (bit_depth == 16) png_set_scale_16(png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != 4 * (size_t)width) {
        png_error(png, "could not convert image to 8-bit RGBA");
    }
    decoder->rows = (png_bytep *)malloc(sizeof(png_bytep) * (size_t)height);
    if (decoder->rows == NULL) png_error(png, "out of memory");
    *result = decoder;
    return 0;
}

int kf_png_decoder_read_rgba(kf_png_decoder *decoder, uint8_t *destination, size_t stride, int premultiply,
                             char *message, size_t message_capacity) {
    if (decoder == NULL || destination == NULL || stride < 4 * (size_t)decoder->width || decoder->consumed) {
        kf_copy_message(message, message_capacity, "invalid arguments to PNG decoder");
        return 1;
    }
    decoder->consumed = 1;
    decoder->failure.message = message;
    decoder->failure.message_capacity = message_capacity;
    if (setjmp(decoder->failure.jump)) {
        return 1;
    }
    for (uint32_t y = 0; y < decoder->height; y++) decoder->rows[y] = destination + (size_t)y * stride;
    png_read_image(decoder->png, decoder->rows);
    png_read_end(decoder->png, NULL);

    if (premultiply) {
        for (uint32_t y = 0; y < decoder->height; y++) {
            uint8_t *p = decoder->rows[y];
            for (uint32_t x = 0; x < decoder->width; x++, p += 4) {
                unsigned a = p[3];
                if (a == 255) continue;
                for (int c = 0; c < 3; c++) {
                    unsigned t = (unsigned)p[c] * a + 128u;
                    p[c] = (uint8_t)((t + (t >> 8)) >> 8);
                }
            }
        }
    }
    return 0;
}

int kf_deflate_raw(const uint8_t *bytes, size_t count, int level, kf_png_buffer *out,
                   char *message, size_t message_capacity) {
    out->bytes = NULL;
    out->count = 0;
    out->capacity = 0;
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    int status = deflateInit2(&stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
    if (status != Z_OK) {
        kf_copy_message(message, message_capacity, stream.msg != NULL ? stream.msg : "deflateInit2 failed");
        return status;
    }
    size_t capacity = (size_t)deflateBound(&stream, (uLong)count) + 16;
    uint8_t *buffer = (uint8_t *)malloc(capacity > 0 ? capacity : 1);
    if (buffer == NULL) {
        deflateEnd(&stream);
        kf_copy_message(message, message_capacity, "out of memory");
        return Z_MEM_ERROR;
    }
    /* Fed in pieces that fit zlib's uInt counters, so inputs above 4 GiB are handled too. */
    size_t offset = 0;
    stream.next_out = buffer;
    stream.avail_out = (uInt)capacity;
    do {
        size_t piece = count - offset;
        if (piece > 0x40000000u) piece = 0x40000000u;
        stream.next_in = (Bytef *)(bytes + offset);
        stream.avail_in = (uInt)piece;
        offset += piece;
        int flush = offset == count ? Z_FINISH : Z_NO_FLUSH;
        status = deflate(&stream, flush);
        if (status == Z_STREAM_ERROR || (flush == Z_FINISH && status != Z_STREAM_END) || stream.avail_in != 0) {
            kf_copy_message(message, message_capacity, stream.msg != NULL ? stream.msg : "deflate failed");
            deflateEnd(&stream);
            free(buffer);
            return status == Z_OK ? Z_BUF_ERROR : status;
        }
    } while (offset < count);
    out->bytes = buffer;
    out->count = (size_t)stream.total_out;
    out->capacity = capacity;
    deflateEnd(&stream);
    return 0;
}

uint32_t kf_crc32(uint32_t crc, const uint8_t *bytes, size_t count) {
    uLong value = crc;
    while (count > 0) {
        uInt piece = count > 0x40000000u ? 0x40000000u : (uInt)count;
        value = crc32(value, bytes, piece);
        bytes += piece;
        count -= piece;
    }
    return (uint32_t)value;
}
