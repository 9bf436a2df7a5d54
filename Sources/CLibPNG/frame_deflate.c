/*
 * The fast preset's compressor (see frame_deflate.h for what it does and why).
 *
 * Layout of the work per row:
 *   1. the row's nonzero extent is found, and only that part is converted (or copied) into the current row buffer;
 *      row buffers are all zero outside the extent they hold, so they always hold the whole true row;
 *   2. the active span — the union of this row's and the previous row's extents, widened by one pixel to the right
 *      (the left neighbour of the first zero pixel after the content may be nonzero) — is filtered with each allowed
 *      filter; outside it every filter yields zeros;
 *   3. the filter byte, the zeros left of the span, the span's filtered bytes and the zeros right of it are turned
 *      into tokens and added to Adler-32; inside the span, bit masks of the zero bytes and of the bytes equal to the
 *      byte one pixel back tell where literals end and how long runs are.
 * Tokens collect in a block; at a row boundary after BLOCK_TOKENS tokens the block is written as a dynamic Huffman
 * block with codes built from its own symbol counts.
 *
 * Everything here is plain integer arithmetic on the bytes; the SSE2 and AVX2 paths (the widest the CPU has, chosen
 * at run time, or fewer when the caller limits them) compute exactly what the scalar paths compute, so the stream is
 * the same on every machine.
 */

#include "frame_deflate.h"

#include <stdlib.h>
#include <string.h>

#include "vectors.h"

/* Bytes of zeros kept before and after every row buffer, so that vector loads may run past either end. */
#define PAD 64
/* A block is written at the end of the row in which it reached this many literals and matches. */
#define BLOCK_TOKENS 32768
/* The shortest run of zero bytes, and the shortest repeat of the previous pixel, that become matches inside a row's
 * span (shorter ones stay literals; measured on corpus frames, longer or shorter minimums cost bytes or time). */
#define MIN_ZERO_RUN 8
#define MIN_PIXEL_RUN 6
#define MAX_MATCH 258
/* Bytes after the literal buffer's capacity that copies of literal runs may overwrite (they copy whole 32 bytes). */
#define LITERAL_SLACK 32

/* PNG filter bits (png.h's PNG_FILTER_*), and filter types as stored in front of each row. */
enum { BIT_NONE = 0x08, BIT_SUB = 0x10, BIT_UP = 0x20, BIT_AVG = 0x40, BIT_PAETH = 0x80 };
enum { FILTER_NONE = 0, FILTER_SUB = 1, FILTER_UP = 2, FILTER_AVG = 3, FILTER_PAETH = 4, FILTER_COUNT = 5 };

#define LITLEN_SYMBOLS 286
#define DIST_SYMBOLS 30
#define END_OF_BLOCK 256

/* A match and the literals before it (the block's next `literals` bytes of its literal buffer). */
typedef struct sequence {
    uint32_t literals;
    uint16_t length;
    uint16_t dist;
} sequence;

typedef struct row_buffer {
    uint8_t *bytes; /* PAD bytes after the allocation's start */
    size_t begin;   /* the extent of possibly nonzero bytes: everything outside [begin, end) is zero */
    size_t end;
} row_buffer;

struct kf_frame_deflate {
    /* The image, and the vector instructions used for it (KF_VECTORS_*). */
    size_t row_bytes;
    unsigned bpp;
    int filters;
    int vectors;

    /* Rows and filtered candidates, each row_bytes + 2·PAD long. */
    size_t buffer_bytes;
    uint8_t *allocation;
    row_buffer current;
    row_buffer previous;
    uint8_t *candidate[FILTER_COUNT];
    /* Bit masks over a span (see add_bytes), mask_words words each: zero bytes, bytes equal to the byte a pixel
     * back, and where literals stop. */
    uint64_t *masks;
    size_t mask_words;

    /* The block being gathered: its literal bytes, its sequences, and the literals after its last sequence. */
    uint8_t *literals;
    size_t literal_count;
    size_t literal_capacity;
    sequence *sequences;
    size_t sequence_count;
    size_t sequence_capacity;
    size_t open_literals;
    /* Counts of match lengths (by length) and distance symbols (literals are counted when the block is written). */
    uint32_t length_count[MAX_MATCH + 1];
    uint32_t dist_count[DIST_SYMBOLS];
    /* Zero bytes not yet turned into tokens, and whether the byte before them is zero. */
    size_t zero_run;
    int zero_before_run;
    /* The last four bytes of the stream so far (the most recent in the high byte), zero run included, and whether
     * the stream has any byte yet. */
    uint32_t tail;
    int started;

    /* Adler-32 of the uncompressed stream. */
    uint32_t adler_a;
    uint32_t adler_b;

    /* The zlib stream. */
    uint8_t *out;
    size_t out_count;
    size_t out_capacity;
    uint64_t bits;
    unsigned bit_count;
    int failed;
};

/* MARK: - Lifetime */

kf_frame_deflate *kf_frame_deflate_create(void) {
    return (kf_frame_deflate *)calloc(1, sizeof(kf_frame_deflate));
}

void kf_frame_deflate_free(kf_frame_deflate *d) {
    if (d == NULL) return;
    free(d->allocation);
    free(d->masks);
    free(d->literals);
    free(d->sequences);
    free(d->out);
    free(d);
}

/* Room for `more` bytes of output, and 8 bytes beyond for whole-word stores. */
static int reserve_output(kf_frame_deflate *d, size_t more) {
    if (d->out_count + more + 8 <= d->out_capacity) return 0;
    size_t capacity = d->out_capacity < 65536 ? 65536 : d->out_capacity;
    while (capacity < d->out_count + more + 8) capacity *= 2;
    uint8_t *grown = (uint8_t *)realloc(d->out, capacity);
    if (grown == NULL) {
        d->failed = 1;
        return 1;
    }
    d->out = grown;
    d->out_capacity = capacity;
    return 0;
}

static void clear_block(kf_frame_deflate *d) {
    d->literal_count = 0;
    d->sequence_count = 0;
    d->open_literals = 0;
    memset(d->length_count, 0, sizeof d->length_count);
    memset(d->dist_count, 0, sizeof d->dist_count);
}

int kf_frame_deflate_begin(kf_frame_deflate *d, size_t row_bytes, unsigned bpp, int filters, int vectors) {
    if (bpp < 1 || bpp > 4 || row_bytes == 0) return 1;
    size_t buffer_bytes = row_bytes + 2 * PAD;
    if (buffer_bytes != d->buffer_bytes) {
        free(d->allocation);
        free(d->masks);
        /* A span's masks: a bit per byte, and a word after the last. */
        d->mask_words = row_bytes / 64 + 2;
        d->allocation = (uint8_t *)calloc(2 + FILTER_COUNT, buffer_bytes);
        d->masks = (uint64_t *)malloc(3 * d->mask_words * sizeof(uint64_t));
        if (d->allocation == NULL || d->masks == NULL) {
            free(d->allocation);
            free(d->masks);
            d->allocation = NULL;
            d->masks = NULL;
            d->buffer_bytes = 0;
            return 1;
        }
        d->buffer_bytes = buffer_bytes;
        d->current.bytes = d->allocation + PAD;
        d->previous.bytes = d->allocation + buffer_bytes + PAD;
        for (int f = 0; f < FILTER_COUNT; f++) d->candidate[f] = d->allocation + (2 + f) * buffer_bytes + PAD;
    } else {
        /* Row buffers are zero outside their extents; clear what the last image left. */
        memset(d->current.bytes + d->current.begin, 0, d->current.end - d->current.begin);
        memset(d->previous.bytes + d->previous.begin, 0, d->previous.end - d->previous.begin);
    }
    d->current.begin = d->current.end = 0;
    d->previous.begin = d->previous.end = 0;
    /* A block holds BLOCK_TOKENS, plus at most one row's bytes (or matches), before it is written. */
    size_t capacity = BLOCK_TOKENS + row_bytes + 64;
    if (capacity > d->literal_capacity) {
        free(d->literals);
        d->literals = (uint8_t *)malloc(capacity + LITERAL_SLACK);
        d->literal_capacity = d->literals != NULL ? capacity : 0;
        if (d->literals == NULL) return 1;
    }
    if (capacity > d->sequence_capacity) {
        free(d->sequences);
        d->sequences = (sequence *)malloc(capacity * sizeof(sequence));
        d->sequence_capacity = d->sequences != NULL ? capacity : 0;
        if (d->sequences == NULL) return 1;
    }
    d->row_bytes = row_bytes;
    d->bpp = bpp;
    d->vectors = kf_vectors(vectors);
    d->filters = filters & (BIT_NONE | BIT_SUB | BIT_UP | BIT_AVG | BIT_PAETH);
    if (d->filters == 0) d->filters = BIT_NONE;
    clear_block(d);
    d->zero_run = 0;
    d->zero_before_run = 0;
    d->tail = 0;
    d->started = 0;
    d->adler_a = 1;
    d->adler_b = 0;
    d->out_count = 0;
    d->bits = 0;
    d->bit_count = 0;
    d->failed = 0;
    if (reserve_output(d, 2)) return 1;
    d->out[d->out_count++] = 0x78; /* deflate, 32 KiB window */
    d->out[d->out_count++] = 0x01; /* no dictionary, fastest-compressor hint; (0x78 · 256 + 0x01) % 31 == 0 */
    return 0;
}

/* MARK: - Adler-32 */

#define ADLER_BASE 65521u
#define ADLER_CHUNK 5552 /* the most bytes summed before the sums could overflow 32 bits */

#if KF_X86
/* The sums of the whole 16-byte blocks of the `n` bytes at p added to (*a, *b), reduced; returns the bytes summed.
 * With at most ADLER_CHUNK bytes no 32-bit lane can overflow. */
static size_t adler_blocks_sse2(const uint8_t *p, size_t n, uint32_t *a, uint32_t *b) {
    size_t blocks = n / 16;
    if (blocks == 0) return 0;
    const __m128i zero = _mm_setzero_si128();
    const __m128i weights_low = _mm_setr_epi16(16, 15, 14, 13, 12, 11, 10, 9);
    const __m128i weights_high = _mm_setr_epi16(8, 7, 6, 5, 4, 3, 2, 1);
    __m128i sums = zero, prefix = zero, weighted = zero;
    for (size_t k = 0; k < blocks; k++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(p + 16 * k));
        prefix = _mm_add_epi32(prefix, sums);
        sums = _mm_add_epi32(sums, _mm_sad_epu8(v, zero));
        weighted = _mm_add_epi32(weighted, _mm_madd_epi16(_mm_unpacklo_epi8(v, zero), weights_low));
        weighted = _mm_add_epi32(weighted, _mm_madd_epi16(_mm_unpackhi_epi8(v, zero), weights_high));
    }
    uint32_t s[4], q[4], w[4];
    _mm_storeu_si128((__m128i *)s, sums);
    _mm_storeu_si128((__m128i *)q, prefix);
    _mm_storeu_si128((__m128i *)w, weighted);
    uint64_t block_sum = (uint64_t)s[0] + s[2];
    uint64_t prefix_sum = (uint64_t)q[0] + q[1] + q[2] + q[3];
    uint64_t weighted_sum = (uint64_t)w[0] + w[1] + w[2] + w[3];
    size_t bytes = 16 * blocks;
    *b = (uint32_t)(((uint64_t)*b + (uint64_t)bytes * *a + 16 * prefix_sum + weighted_sum) % ADLER_BASE);
    *a = (uint32_t)(((uint64_t)*a + block_sum) % ADLER_BASE);
    return bytes;
}

/* adler_blocks_sse2 with 32-byte blocks. */
KF_AVX2 static size_t adler_blocks_avx2(const uint8_t *p, size_t n, uint32_t *a, uint32_t *b) {
    size_t blocks = n / 32;
    if (blocks == 0) return 0;
    const __m256i zero = _mm256_setzero_si256(), ones = _mm256_set1_epi16(1);
    const __m256i weights = _mm256_setr_epi8(32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15,
                                             14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1);
    __m256i sums = zero, prefix = zero, weighted = zero;
    for (size_t k = 0; k < blocks; k++) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(p + 32 * k));
        prefix = _mm256_add_epi32(prefix, sums);
        sums = _mm256_add_epi32(sums, _mm256_sad_epu8(v, zero));
        /* Byte pairs weighted into 16 bits (at most 2 · 255 · 32), then pairs of those into 32 bits. */
        weighted = _mm256_add_epi32(weighted, _mm256_madd_epi16(_mm256_maddubs_epi16(v, weights), ones));
    }
    uint32_t s[8], q[8], w[8];
    _mm256_storeu_si256((__m256i *)s, sums);
    _mm256_storeu_si256((__m256i *)q, prefix);
    _mm256_storeu_si256((__m256i *)w, weighted);
    uint64_t block_sum = (uint64_t)s[0] + s[2] + s[4] + s[6];
    uint64_t prefix_sum = 0, weighted_sum = 0;
    for (int k = 0; k < 8; k++) prefix_sum += q[k], weighted_sum += w[k];
    size_t bytes = 32 * blocks;
    *b = (uint32_t)(((uint64_t)*b + (uint64_t)bytes * *a + 32 * prefix_sum + weighted_sum) % ADLER_BASE);
    *a = (uint32_t)(((uint64_t)*a + block_sum) % ADLER_BASE);
    return bytes;
}
#endif

static void adler_bytes(kf_frame_deflate *d, const uint8_t *p, size_t n) {
    uint32_t a = d->adler_a, b = d->adler_b;
    while (n > 0) {
        size_t chunk = n < ADLER_CHUNK ? n : ADLER_CHUNK;
        n -= chunk;
        size_t done = 0;
#if KF_X86
        if (d->vectors >= KF_VECTORS_AVX2) {
            done = adler_blocks_avx2(p, chunk, &a, &b);
        } else if (d->vectors >= KF_VECTORS_SSE2) {
            done = adler_blocks_sse2(p, chunk, &a, &b);
        }
#endif
        for (size_t i = done; i < chunk; i++) {
            a += p[i];
            b += a;
        }
        p += chunk;
        a %= ADLER_BASE;
        b %= ADLER_BASE;
    }
    d->adler_a = a;
    d->adler_b = b;
}

static void adler_zeros(kf_frame_deflate *d, size_t n) {
    d->adler_b = (uint32_t)((d->adler_b + (uint64_t)(n % ADLER_BASE) * d->adler_a) % ADLER_BASE);
}

/* MARK: - Bits */

/* Stores 8 bytes of `value`, least significant first (the bit writer keeps 8 bytes of room). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define KF_STORE64(p, value)                                                                                       \
    do {                                                                                                           \
        uint64_t word_ = (value);                                                                                  \
        memcpy((p), &word_, 8);                                                                                    \
    } while (0)
#else
#define KF_STORE64(p, value)                                                                                       \
    do {                                                                                                           \
        for (int k_ = 0; k_ < 8; k_++) (p)[k_] = (uint8_t)((value) >> (8 * k_));                                  \
    } while (0)
#endif

/* Appends `count` ≤ 32 bits; at most 31 bits stay pending afterwards. Needs 8 bytes of room at out_count. */
static inline void put_bits(kf_frame_deflate *d, uint32_t value, unsigned count) {
    d->bits |= (uint64_t)value << d->bit_count;
    d->bit_count += count;
    if (d->bit_count >= 32) {
        KF_STORE64(d->out + d->out_count, d->bits);
        d->out_count += 4;
        d->bits >>= 32;
        d->bit_count -= 32;
    }
}

static void align_to_byte(kf_frame_deflate *d) {
    while (d->bit_count > 0) {
        d->out[d->out_count++] = (uint8_t)d->bits;
        d->bits >>= 8;
        d->bit_count = d->bit_count >= 8 ? d->bit_count - 8 : 0;
    }
    d->bits = 0;
}

/* MARK: - Huffman codes */

/* Sorts `n` keys ascending (least significant byte first, four passes of eight bits over 64-bit keys whose top
 * bytes are checked for being in use). */
static void sort_keys(uint64_t *keys, uint64_t *scratch, unsigned n) {
    uint64_t highest = 0;
    for (unsigned i = 0; i < n; i++) highest |= keys[i];
    for (unsigned shift = 0; shift < 64 && (highest >> shift) != 0; shift += 8) {
        unsigned count[257] = {0};
        for (unsigned i = 0; i < n; i++) count[((keys[i] >> shift) & 0xFF) + 1]++;
        for (unsigned i = 0; i < 256; i++) count[i + 1] += count[i];
        for (unsigned i = 0; i < n; i++) scratch[count[(keys[i] >> shift) & 0xFF]++] = keys[i];
        memcpy(keys, scratch, n * sizeof(uint64_t));
    }
}

/*
 * Code lengths of at most `limit` bits for the `n` symbols with counts `count` (zero counts get length 0): a Huffman
 * code built by merging the two lightest trees (leaves before internal nodes on ties), then, when it is deeper than
 * `limit`, reshaped level by level the way JPEG's Annex K.3 limits code lengths (which keeps the code complete), with
 * the longest codes going to the rarest symbols. Needs at least two symbols with nonzero counts for a complete code.
 */
static void huffman_lengths(const uint32_t *count, unsigned n, unsigned limit, uint8_t *lengths) {
    uint64_t keys[LITLEN_SYMBOLS], scratch[LITLEN_SYMBOLS];
    unsigned m = 0;
    for (unsigned s = 0; s < n; s++) {
        lengths[s] = 0;
        if (count[s] != 0) keys[m++] = (uint64_t)count[s] << 9 | s;
    }
    if (m == 0) return;
    if (m == 1) {
        lengths[keys[0] & 0x1FF] = 1;
        return;
    }
    sort_keys(keys, scratch, m);
    /* Nodes 0 … m−1 are the leaves in ascending weight, m … 2m−2 the internal nodes in creation order. */
    uint64_t weight[2 * LITLEN_SYMBOLS];
    unsigned parent[2 * LITLEN_SYMBOLS];
    for (unsigned i = 0; i < m; i++) weight[i] = keys[i] >> 9;
    unsigned leaf = 0, inner = m, created = m;
    for (unsigned k = 0; k + 1 < m; k++) {
        unsigned pick[2];
        for (int t = 0; t < 2; t++) {
            if (leaf < m && (inner >= created || weight[leaf] <= weight[inner])) {
                pick[t] = leaf++;
            } else {
                pick[t] = inner++;
            }
        }
        weight[created] = weight[pick[0]] + weight[pick[1]];
        parent[pick[0]] = parent[pick[1]] = created;
        created++;
    }
    unsigned depth[2 * LITLEN_SYMBOLS];
    unsigned root = created - 1;
    depth[root] = 0;
    for (unsigned node = root; node-- > m;) depth[node] = depth[parent[node]] + 1;
    unsigned per_length[64] = {0};
    unsigned deepest = 0;
    for (unsigned i = 0; i < m; i++) {
        depth[i] = depth[parent[i]] + 1;
        per_length[depth[i]]++;
        if (depth[i] > deepest) deepest = depth[i];
    }
    if (deepest <= limit) {
        for (unsigned i = 0; i < m; i++) lengths[keys[i] & 0x1FF] = (uint8_t)depth[i];
        return;
    }
    /* Too deep: move pairs of the deepest leaves up, one level at a time, keeping the code complete. */
    for (unsigned i = deepest; i > limit; i--) {
        while (per_length[i] > 0) {
            unsigned j = i - 2;
            while (per_length[j] == 0) j--;
            per_length[i] -= 2;
            per_length[i - 1] += 1;
            per_length[j + 1] += 2;
            per_length[j] -= 1;
        }
    }
    /* The rarest symbols (first in `keys`) get the longest codes. */
    unsigned i = 0;
    for (unsigned length = limit; length >= 1; length--) {
        for (unsigned c = 0; c < per_length[length]; c++) lengths[keys[i++] & 0x1FF] = (uint8_t)length;
    }
}

/* Canonical codes for `lengths`, bit-reversed as deflate sends them (RFC 1951 §3.2.2). */
static void canonical_codes(const uint8_t *lengths, unsigned n, uint16_t *codes) {
    unsigned per_length[16] = {0};
    for (unsigned s = 0; s < n; s++) per_length[lengths[s]]++;
    per_length[0] = 0;
    unsigned next[16];
    unsigned code = 0;
    for (unsigned length = 1; length < 16; length++) {
        code = (code + per_length[length - 1]) << 1;
        next[length] = code;
    }
    for (unsigned s = 0; s < n; s++) {
        unsigned length = lengths[s];
        if (length == 0) {
            codes[s] = 0;
            continue;
        }
        unsigned c = next[length]++, reversed = 0;
        for (unsigned b = 0; b < length; b++) reversed |= ((c >> b) & 1u) << (length - 1 - b);
        codes[s] = (uint16_t)reversed;
    }
}

/* MARK: - Length symbols */

/* Length 3 … 258 → symbol 257 … 285 and its extra bits (RFC 1951 §3.2.5). */
static const uint16_t length_base[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                         31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t length_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                         2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};

/* Symbol index (0 … 28) of a length − 3 (0 … 255). */
static inline unsigned length_symbol(unsigned v) {
    if (v < 8) return v;
    if (v == 255) return 28;
    unsigned extra = 29u - (unsigned)__builtin_clz(v);
    return 4 * extra + 4 + ((v >> extra) & 3);
}

/* MARK: - Blocks */

static const uint8_t code_length_order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

/* Writes the gathered literals and matches as one dynamic Huffman block, and starts a new block. */
static void write_block(kf_frame_deflate *d, int final) {
    uint32_t litlen_count[LITLEN_SYMBOLS] = {0};
    for (unsigned length = 3; length <= MAX_MATCH; length++) {
        litlen_count[257 + length_symbol(length - 3)] += d->length_count[length];
    }
    {
        /* The literals, counted in four tables (consecutive bytes go to different tables, so repeated bytes do not
         * wait on each other's increments). */
        uint32_t table[4][256];
        memset(table, 0, sizeof table);
        const uint8_t *p = d->literals;
        size_t k = 0, n = d->literal_count;
        for (; k + 4 <= n; k += 4) {
            table[0][p[k]]++;
            table[1][p[k + 1]]++;
            table[2][p[k + 2]]++;
            table[3][p[k + 3]]++;
        }
        for (; k < n; k++) table[0][p[k]]++;
        for (unsigned s = 0; s < 256; s++) litlen_count[s] = table[0][s] + table[1][s] + table[2][s] + table[3][s];
    }
    litlen_count[END_OF_BLOCK] = 1;
    /* A complete literal/length code needs two symbols; a lone end-of-block gets a partner that is never sent. */
    unsigned used = 0;
    for (unsigned s = 0; s < LITLEN_SYMBOLS && used < 2; s++) used += litlen_count[s] != 0;
    if (used < 2) litlen_count[0] = 1;
    uint8_t litlen_length[LITLEN_SYMBOLS], dist_length[DIST_SYMBOLS];
    huffman_lengths(litlen_count, LITLEN_SYMBOLS, 15, litlen_length);
    huffman_lengths(d->dist_count, DIST_SYMBOLS, 15, dist_length);
    unsigned dist_used = 0;
    for (unsigned s = 0; s < DIST_SYMBOLS; s++) dist_used += dist_length[s] != 0;
    if (dist_used == 0) dist_length[0] = 1; /* one unused distance code, which inflate allows */
    uint16_t litlen_code[LITLEN_SYMBOLS], dist_code[DIST_SYMBOLS];
    canonical_codes(litlen_length, LITLEN_SYMBOLS, litlen_code);
    canonical_codes(dist_length, DIST_SYMBOLS, dist_code);

    unsigned hlit = LITLEN_SYMBOLS, hdist = DIST_SYMBOLS;
    while (hlit > 257 && litlen_length[hlit - 1] == 0) hlit--;
    while (hdist > 1 && dist_length[hdist - 1] == 0) hdist--;

    /* The code lengths of both codes as one sequence, run-length coded with symbols 16, 17 and 18. */
    uint8_t lengths[LITLEN_SYMBOLS + DIST_SYMBOLS];
    memcpy(lengths, litlen_length, hlit);
    memcpy(lengths + hlit, dist_length, hdist);
    unsigned total = hlit + hdist;
    uint8_t rle_symbol[LITLEN_SYMBOLS + DIST_SYMBOLS];
    uint8_t rle_extra[LITLEN_SYMBOLS + DIST_SYMBOLS];
    unsigned rle_count = 0;
    for (unsigned i = 0; i < total;) {
        uint8_t value = lengths[i];
        unsigned run = 1;
        while (i + run < total && lengths[i + run] == value) run++;
        i += run;
        if (value == 0) {
            while (run >= 11) {
                unsigned r = run < 138 ? run : 138;
                rle_symbol[rle_count] = 18, rle_extra[rle_count++] = (uint8_t)(r - 11);
                run -= r;
            }
            if (run >= 3) {
                rle_symbol[rle_count] = 17, rle_extra[rle_count++] = (uint8_t)(run - 3);
                run = 0;
            }
        } else {
            rle_symbol[rle_count] = value, rle_extra[rle_count++] = 0;
            run--;
            while (run >= 3) {
                unsigned r = run < 6 ? run : 6;
                rle_symbol[rle_count] = 16, rle_extra[rle_count++] = (uint8_t)(r - 3);
                run -= r;
            }
        }
        for (; run > 0; run--) rle_symbol[rle_count] = value, rle_extra[rle_count++] = 0;
    }
    uint32_t clen_count[19] = {0};
    for (unsigned i = 0; i < rle_count; i++) clen_count[rle_symbol[i]]++;
    unsigned clen_used = 0;
    for (unsigned s = 0; s < 19; s++) clen_used += clen_count[s] != 0;
    if (clen_used < 2) clen_count[clen_count[0] != 0 ? 1 : 0] = 1; /* the code-length code must be complete */
    uint8_t clen_length[19];
    uint16_t clen_code[19];
    huffman_lengths(clen_count, 19, 7, clen_length);
    canonical_codes(clen_length, 19, clen_code);
    unsigned hclen = 19;
    while (hclen > 4 && clen_length[code_length_order[hclen - 1]] == 0) hclen--;

    /* At most: the header, 15 bits a literal, 48 bits a match, the end of the block. */
    if (reserve_output(d, 400 + 2 * d->literal_count + 6 * d->sequence_count)) {
        clear_block(d); /* the image is lost (kf_frame_deflate_end reports it); the buffers stay in bounds */
        return;
    }
    put_bits(d, final ? 1u : 0u, 1);
    put_bits(d, 2, 2);
    put_bits(d, hlit - 257, 5);
    put_bits(d, hdist - 1, 5);
    put_bits(d, hclen - 4, 4);
    for (unsigned i = 0; i < hclen; i++) put_bits(d, clen_length[code_length_order[i]], 3);
    static const uint8_t rle_extra_bits[19] = {[16] = 2, [17] = 3, [18] = 7};
    for (unsigned i = 0; i < rle_count; i++) {
        unsigned s = rle_symbol[i];
        put_bits(d, clen_code[s] | (uint32_t)rle_extra[i] << clen_length[s], clen_length[s] + rle_extra_bits[s]);
    }

    /* Codes and their lengths in one word each (length << 16 | code). */
    uint32_t literal_word[256];
    for (unsigned s = 0; s < 256; s++) literal_word[s] = (uint32_t)litlen_length[s] << 16 | litlen_code[s];
    /* Each match length's code and extra bits as one value of at most 20 bits, and its bit count (count << 24 |
     * value); the same for the distances the compressor uses (1 … 4, none of which has extra bits). */
    uint32_t length_word[MAX_MATCH + 1];
    for (unsigned length = 3; length <= MAX_MATCH; length++) {
        unsigned ls = length_symbol(length - 3), code_bits = litlen_length[257 + ls];
        length_word[length] = (uint32_t)(code_bits + length_extra[ls]) << 24
            | (uint32_t)(length - length_base[ls]) << code_bits | litlen_code[257 + ls];
    }
    uint32_t dist_word[5];
    for (unsigned dist = 1; dist <= 4; dist++) {
        dist_word[dist] = (uint32_t)dist_length[dist - 1] << 24 | dist_code[dist - 1];
    }
    const uint8_t *literal = d->literals;
    uint64_t bits = d->bits;
    unsigned bit_count = d->bit_count;
    uint8_t *out = d->out + d->out_count;
    /* The whole bytes of `bits` are stored and dropped, leaving at most 7 bits pending: after each flush the word has
     * room for 56 more bits (four literals unless some have 15-bit codes, three always, or a match: 15 + 5 + 15
     * bits). */
#define KF_FLUSH()                                                                                                 \
    do {                                                                                                           \
        KF_STORE64(out, bits);                                                                                     \
        out += bit_count >> 3;                                                                                     \
        bits >>= bit_count & 56;                                                                                   \
        bit_count &= 7;                                                                                            \
    } while (0)
    /* The code of two literals (their words w0, w1) as one, and its length. */
#define KF_PAIR(w0, w1) ((uint64_t)((w0) & 0xFFFF) | (uint64_t)((w1) & 0xFFFF) << ((w0) >> 16))
#define KF_PAIR_LENGTH(w0, w1) (((w0) >> 16) + ((w1) >> 16))
    KF_FLUSH();
    for (size_t q = 0; q <= d->sequence_count; q++) {
        /* The sequences, then the literals after the last one. */
        const int last = q == d->sequence_count;
        size_t count = last ? d->open_literals : d->sequences[q].literals;
        const uint8_t *literals_end = literal + count;
        for (; literals_end - literal >= 4; literal += 4) {
            uint32_t w0 = literal_word[literal[0]], w1 = literal_word[literal[1]];
            uint32_t w2 = literal_word[literal[2]], w3 = literal_word[literal[3]];
            unsigned low = KF_PAIR_LENGTH(w0, w1), high = KF_PAIR_LENGTH(w2, w3);
            if (low + high <= 56) {
                bits |= (KF_PAIR(w0, w1) | KF_PAIR(w2, w3) << low) << bit_count;
                bit_count += low + high;
            } else {
                bits |= KF_PAIR(w0, w1) << bit_count;
                bit_count += low;
                KF_FLUSH();
                bits |= KF_PAIR(w2, w3) << bit_count;
                bit_count += high;
            }
            KF_FLUSH();
        }
        for (; literal < literals_end; literal++) {
            uint32_t w = literal_word[*literal];
            bits |= (uint64_t)(w & 0xFFFF) << bit_count;
            bit_count += w >> 16;
        }
        KF_FLUSH();
        if (last) break;
        uint32_t length = length_word[d->sequences[q].length], dist = dist_word[d->sequences[q].dist];
        bits |= ((uint64_t)(length & 0xFFFFFF) | (uint64_t)(dist & 0xFFFFFF) << (length >> 24)) << bit_count;
        bit_count += (length >> 24) + (dist >> 24);
        KF_FLUSH();
    }
    bits |= (uint64_t)litlen_code[END_OF_BLOCK] << bit_count;
    bit_count += litlen_length[END_OF_BLOCK];
    KF_FLUSH();
#undef KF_PAIR_LENGTH
#undef KF_PAIR
#undef KF_FLUSH
    d->out_count = (size_t)(out - d->out);
    d->bits = bits;
    d->bit_count = bit_count;
    clear_block(d);
}

/* MARK: - Tokens */

/* Makes room for `literals` more literals and `matches` more matches, writing the block gathered so far when they
 * would not fit. */
static inline void reserve(kf_frame_deflate *d, size_t literals, size_t matches) {
    if (d->literal_count + literals > d->literal_capacity || d->sequence_count + matches > d->sequence_capacity) {
        write_block(d, 0);
    }
}

static inline void add_literal(kf_frame_deflate *d, uint8_t byte) {
    d->literals[d->literal_count++] = byte;
    d->open_literals++;
}

/* Matches at `dist` for `run` ≥ 3 bytes, split so that none is shorter than 3. Matches reach back one byte (zero runs)
 * or one pixel: distances 1 … 4, whose symbols are 0 … 3, without extra bits. */
static void add_matches(kf_frame_deflate *d, size_t run, unsigned dist) {
    while (run >= 3) {
        reserve(d, 0, 1);
        size_t take = run < MAX_MATCH ? run : MAX_MATCH;
        if (run - take > 0 && run - take < 3) take = run - 3;
        sequence *q = &d->sequences[d->sequence_count++];
        q->literals = (uint32_t)d->open_literals;
        q->length = (uint16_t)take;
        q->dist = (uint16_t)dist;
        d->open_literals = 0;
        d->length_count[take]++;
        d->dist_count[dist - 1]++;
        run -= take;
    }
}

/* Turns the pending zero run into tokens: matches at distance 1 after a zero (a literal zero first when the byte
 * before the run is not one), literals when too short. */
static void flush_zero_run_slow(kf_frame_deflate *d) {
    size_t run = d->zero_run;
    d->zero_run = 0;
    if (!d->zero_before_run || run < 3) {
        reserve(d, 1, 0);
        add_literal(d, 0);
        run--;
    }
    if (run >= 3) {
        add_matches(d, run, 1);
        return;
    }
    for (; run > 0; run--) {
        reserve(d, 1, 0);
        add_literal(d, 0);
    }
}

static inline void flush_zero_run(kf_frame_deflate *d) {
    if (d->zero_run != 0) flush_zero_run_slow(d);
}

/* Adds `n` zero bytes to the pending run; `zero_before` tells whether the stream's byte before them is zero. */
static inline void add_zeros(kf_frame_deflate *d, size_t n, int zero_before) {
    if (n == 0) return;
    if (d->zero_run == 0) d->zero_before_run = zero_before;
    d->zero_run += n;
    d->tail = n >= 4 ? 0 : d->tail >> (8 * n);
}

/* Whether the stream so far ends with a zero byte (false for an empty stream). */
static inline int stream_ends_with_zero(const kf_frame_deflate *d) {
    return d->zero_run > 0 || (d->started && (d->tail >> 24) == 0);
}

/* MARK: - Span masks */

/* Clears the bits from n on of masks of `words` words, and the word after them. */
static inline void clear_past(uint64_t *zero, uint64_t *same, size_t n, size_t words) {
    if (n % 64 != 0) {
        uint64_t keep = ((uint64_t)1 << (n % 64)) - 1;
        zero[words - 1] &= keep;
        same[words - 1] &= keep;
    }
    zero[words] = same[words] = 0;
}

/* Bit j of `zero` is set when p[j] == 0, bit j of `same` when p[j] == p[j − bpp], for j < n (the bpp bytes before p are
 * readable); the bits from n on are clear, through the word after the last. The vector paths read up to 63 bytes
 * past p + n. */
static void span_masks_scalar(const uint8_t *p, size_t n, size_t bpp, uint64_t *zero, uint64_t *same) {
    size_t words = (n + 63) / 64;
    for (size_t w = 0; w < words; w++) {
        const uint8_t *q = p + 64 * w;
        size_t count = n - 64 * w < 64 ? n - 64 * w : 64;
        uint64_t z = 0, e = 0;
        for (size_t k = 0; k < count; k++) {
            z |= (uint64_t)(q[k] == 0) << k;
            e |= (uint64_t)(q[k] == q[k - bpp]) << k;
        }
        zero[w] = z;
        same[w] = e;
    }
    zero[words] = same[words] = 0;
}

#if KF_X86
static void span_masks_sse2(const uint8_t *p, size_t n, size_t bpp, uint64_t *zero, uint64_t *same) {
    size_t words = (n + 63) / 64;
    const __m128i z = _mm_setzero_si128();
    for (size_t w = 0; w < words; w++) {
        const uint8_t *q = p + 64 * w;
        uint64_t zm = 0, em = 0;
        for (int k = 0; k < 4; k++) {
            __m128i v = _mm_loadu_si128((const __m128i *)(q + 16 * k));
            __m128i back = _mm_loadu_si128((const __m128i *)(q + 16 * k - bpp));
            zm |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, z)) << (16 * k);
            em |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, back)) << (16 * k);
        }
        zero[w] = zm;
        same[w] = em;
    }
    clear_past(zero, same, n, words);
}

KF_AVX2 static void span_masks_avx2(const uint8_t *p, size_t n, size_t bpp, uint64_t *zero, uint64_t *same) {
    size_t words = (n + 63) / 64;
    const __m256i z = _mm256_setzero_si256();
    for (size_t w = 0; w < words; w++) {
        const uint8_t *q = p + 64 * w;
        __m256i v0 = _mm256_loadu_si256((const __m256i *)q), v1 = _mm256_loadu_si256((const __m256i *)(q + 32));
        __m256i b0 = _mm256_loadu_si256((const __m256i *)(q - bpp));
        __m256i b1 = _mm256_loadu_si256((const __m256i *)(q + 32 - bpp));
        zero[w] = (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v0, z))
            | (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v1, z)) << 32;
        same[w] = (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v0, b0))
            | (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v1, b1)) << 32;
    }
    clear_past(zero, same, n, words);
}
#endif

static void span_masks(const kf_frame_deflate *d, const uint8_t *p, size_t n, uint64_t *zero, uint64_t *same) {
#if KF_X86
    if (d->vectors >= KF_VECTORS_AVX2) {
        span_masks_avx2(p, n, d->bpp, zero, same);
        return;
    }
    if (d->vectors >= KF_VECTORS_SSE2) {
        span_masks_sse2(p, n, d->bpp, zero, same);
        return;
    }
#endif
    span_masks_scalar(p, n, d->bpp, zero, same);
}

/* Bit k of the result is set when bits k … k + r − 1 (r ≤ 8) of the mask whose word is `word`, followed by `next`, all
 * are. */
static inline uint64_t runs_of(uint64_t word, uint64_t next, unsigned r) {
    unsigned have = 1;
    while (have < r) {
        unsigned step = have < r - have ? have : r - have;
        word &= word >> step | next << (64 - step);
        next &= next >> step; /* exact in the low bits, which are all the next steps read */
        have += step;
    }
    return word;
}

/* The first position from i on whose bit in `mask` is set (`flip` 0) or clear (`flip` all ones), or n when there is
 * none before n. Bits from n on must be clear. */
static inline size_t next_bit(const uint64_t *mask, uint64_t flip, size_t i, size_t n) {
    size_t w = i / 64;
    uint64_t word = (mask[w] ^ flip) & (~(uint64_t)0 << (i % 64));
    while (word == 0) {
        w++;
        if (64 * w >= n) return n;
        word = mask[w] ^ flip;
    }
    size_t at = 64 * w + (size_t)__builtin_ctzll(word);
    return at < n ? at : n;
}

/*
 * Tokens for the `n` ≥ 4 filtered bytes at `p`, whose 4 bytes before it hold the stream's preceding bytes: runs of at
 * least MIN_ZERO_RUN zero bytes go to the pending zero run, repeats of the previous pixel at least MIN_PIXEL_RUN bytes
 * long become matches at distance `bpp`, the rest literals. A literal run ends where such a run starts; a run that
 * starts with a zero byte is a zero run (as long as the zeros last), any other a repeat (as long as it lasts).
 */
static void add_bytes(kf_frame_deflate *d, const uint8_t *p, size_t n) {
    const size_t bpp = d->bpp;
    uint64_t *zero = d->masks, *same = zero + d->mask_words, *stop = same + d->mask_words;
    span_masks(d, p, n, zero, same);
    const size_t words = (n + 63) / 64;
    for (size_t w = 0; w < words; w++) {
        stop[w] = runs_of(zero[w], zero[w + 1], MIN_ZERO_RUN) | runs_of(same[w], same[w + 1], MIN_PIXEL_RUN);
    }
    size_t i = 0;
    while (i < n) {
        size_t end = next_bit(stop, 0, i, n);
        if (end > i) {
            flush_zero_run(d);
            size_t count = end - i;
            reserve(d, count, 0);
            /* Whole 32 bytes at a time: the span's buffer and the literal buffer have room past their ends. */
            uint8_t *to = d->literals + d->literal_count;
            for (size_t k = 0; k < count; k += 32) memcpy(to + k, p + i + k, 32);
            d->literal_count += count;
            d->open_literals += count;
            i = end;
        } else if (p[i] == 0) {
            size_t run = next_bit(zero, ~(uint64_t)0, i, n) - i;
            if (d->zero_run == 0) d->zero_before_run = p[i - 1] == 0;
            d->zero_run += run;
            i += run;
        } else {
            size_t run = next_bit(same, ~(uint64_t)0, i, n) - i; /* at least MIN_PIXEL_RUN ≥ 3 */
            flush_zero_run(d);
            add_matches(d, run, (unsigned)bpp);
            i += run;
        }
    }
    d->tail = (uint32_t)p[n - 4] | (uint32_t)p[n - 3] << 8 | (uint32_t)p[n - 2] << 16 | (uint32_t)p[n - 1] << 24;
}

/* MARK: - Rows */

#if KF_X86
static inline int zero_16(const uint8_t *p) {
    return _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)p), _mm_setzero_si128())) == 0xFFFF;
}

static inline int zero_64(const uint8_t *p) {
    __m128i any = _mm_or_si128(
        _mm_or_si128(_mm_loadu_si128((const __m128i *)p), _mm_loadu_si128((const __m128i *)(p + 16))),
        _mm_or_si128(_mm_loadu_si128((const __m128i *)(p + 32)), _mm_loadu_si128((const __m128i *)(p + 48))));
    return _mm_movemask_epi8(_mm_cmpeq_epi8(any, _mm_setzero_si128())) == 0xFFFF;
}

KF_AVX2 static inline int zero_32(const uint8_t *p) {
    __m256i v = _mm256_loadu_si256((const __m256i *)p);
    return _mm256_testz_si256(v, v);
}

KF_AVX2 static inline int zero_128(const uint8_t *p) {
    __m256i any = _mm256_or_si256(
        _mm256_or_si256(_mm256_loadu_si256((const __m256i *)p), _mm256_loadu_si256((const __m256i *)(p + 32))),
        _mm256_or_si256(_mm256_loadu_si256((const __m256i *)(p + 64)), _mm256_loadu_si256((const __m256i *)(p + 96))));
    return _mm256_testz_si256(any, any);
}

/* Moves *first past whole zero vectors at the start of the `n` bytes of `row`, and *last back over whole zero vectors
 * at the end (not below *first); reads only [0, n). */
static void zero_ends_sse2(const uint8_t *row, size_t n, size_t *first, size_t *last) {
    size_t i = 0, j = n;
    while (i + 64 <= n && zero_64(row + i)) i += 64;
    while (i + 16 <= n && zero_16(row + i)) i += 16;
    while (j >= i + 64 && zero_64(row + j - 64)) j -= 64;
    while (j >= i + 16 && zero_16(row + j - 16)) j -= 16;
    *first = i;
    *last = j;
}

KF_AVX2 static void zero_ends_avx2(const uint8_t *row, size_t n, size_t *first, size_t *last) {
    size_t i = 0, j = n;
    while (i + 128 <= n && zero_128(row + i)) i += 128;
    while (i + 32 <= n && zero_32(row + i)) i += 32;
    while (j >= i + 128 && zero_128(row + j - 128)) j -= 128;
    while (j >= i + 32 && zero_32(row + j - 32)) j -= 32;
    *first = i;
    *last = j;
}
#endif

/* The extent [*begin, *end) of nonzero bytes of the `n` bytes of `row`, widened to multiples of 16 (within the row);
 * empty: 0, 0. Reads only the row. */
static void nonzero_extent(const kf_frame_deflate *d, const uint8_t *row, size_t n, size_t *begin, size_t *end) {
    size_t first = 0, last = n;
#if KF_X86
    if (d->vectors >= KF_VECTORS_AVX2) {
        zero_ends_avx2(row, n, &first, &last);
    } else if (d->vectors >= KF_VECTORS_SSE2) {
        zero_ends_sse2(row, n, &first, &last);
    }
#else
    (void)d;
#endif
    while (first < n && row[first] == 0) first++;
    if (first == n) {
        *begin = *end = 0;
        return;
    }
    while (last > first && row[last - 1] == 0) last--;
    *begin = first & ~(size_t)15;
    size_t rounded = (last + 15) & ~(size_t)15;
    *end = rounded < n ? rounded : n;
}

#if KF_X86
#define KF_KERNEL static void filter_kernel_sse2
#define KF_VECTOR __m128i
#define KF_WIDTH 16
#define KF_OP(name) _mm_##name
#define KF_LOAD _mm_loadu_si128
#define KF_STORE _mm_storeu_si128
#define KF_ZERO _mm_setzero_si128
#define KF_AND _mm_and_si128
#define KF_OR _mm_or_si128
#define KF_ANDNOT _mm_andnot_si128
#define KF_XOR _mm_xor_si128
#include "frame_filter_kernel.h"

#define KF_KERNEL KF_AVX2 static void filter_kernel_avx2
#define KF_VECTOR __m256i
#define KF_WIDTH 32
#define KF_OP(name) _mm256_##name
#define KF_LOAD _mm256_loadu_si256
#define KF_STORE _mm256_storeu_si256
#define KF_ZERO _mm256_setzero_si256
#define KF_AND _mm256_and_si256
#define KF_OR _mm256_or_si256
#define KF_ANDNOT _mm256_andnot_si256
#define KF_XOR _mm256_xor_si256
#include "frame_filter_kernel.h"
#endif

/* Filters bytes [begin, end) of `row` (above: `up`) with every allowed filter into the candidate buffers and returns
 * the filter whose output has the smallest sum of absolute values (as signed bytes); the first on ties. */
static int filter_span(kf_frame_deflate *d, const uint8_t *row, const uint8_t *up, size_t begin, size_t end) {
    const size_t bpp = d->bpp;
    const int allowed = d->filters;
    uint64_t cost[FILTER_COUNT] = {0};
#if KF_X86
    if (d->vectors >= KF_VECTORS_AVX2) {
        filter_kernel_avx2(row, up, begin, end, bpp, allowed, d->candidate, cost);
    } else if (d->vectors >= KF_VECTORS_SSE2) {
        filter_kernel_sse2(row, up, begin, end, bpp, allowed, d->candidate, cost);
    } else
#endif
    {
        for (size_t x = begin; x < end; x++) {
            unsigned c = row[x], a = row[x - bpp], b = up[x], ul = up[x - bpp];
            int pa = abs((int)b - (int)ul), pb = abs((int)a - (int)ul), pc = abs((int)a + (int)b - 2 * (int)ul);
            unsigned predictor = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : ul);
            uint8_t v[FILTER_COUNT] = {(uint8_t)c, (uint8_t)(c - a), (uint8_t)(c - b),
                                       (uint8_t)(c - ((a + b) >> 1)), (uint8_t)(c - predictor)};
            for (int f = 0; f < FILTER_COUNT; f++) {
                d->candidate[f][x] = v[f];
                cost[f] += v[f] < 128 ? v[f] : 256u - v[f];
            }
        }
    }
    int best = -1;
    static const int bits[FILTER_COUNT] = {BIT_NONE, BIT_SUB, BIT_UP, BIT_AVG, BIT_PAETH};
    for (int f = 0; f < FILTER_COUNT; f++) {
        if ((allowed & bits[f]) && (best < 0 || cost[f] < cost[best])) best = f;
    }
    return best;
}

int kf_frame_deflate_row(kf_frame_deflate *d, const uint8_t *source, kf_frame_row_convert convert,
                         const void *context) {
    if (d->failed) return 1;
    const size_t n = d->row_bytes;
    /* 1. The row into the buffer that held the row before the previous one. */
    row_buffer row = d->previous;
    d->previous = d->current;
    memset(row.bytes + row.begin, 0, row.end - row.begin);
    nonzero_extent(d, source, n, &row.begin, &row.end);
    if (row.end > row.begin) {
        if (convert != NULL) {
            convert(source + row.begin, row.bytes + row.begin, row.end - row.begin, context);
        } else {
            memcpy(row.bytes + row.begin, source + row.begin, row.end - row.begin);
        }
    }
    d->current = row;
    const row_buffer above = d->previous;

    /* 2. The active span, filtered. */
    size_t begin = 0, end = 0;
    if (row.end > row.begin || above.end > above.begin) {
        begin = row.end > row.begin ? row.begin : above.begin;
        if (above.end > above.begin && above.begin < begin) begin = above.begin;
        end = row.end > above.end ? row.end : above.end;
        end = (end + d->bpp + 15) & ~(size_t)15;
        if (end > n) end = n;
    }
    int filter = end > begin ? filter_span(d, row.bytes, above.bytes, begin, end) : FILTER_NONE;

    /* 3. Tokens and checksum: the filter byte, zeros, the span, zeros. */
    uint8_t filter_byte = (uint8_t)filter;
    if (filter_byte == 0) {
        add_zeros(d, 1, stream_ends_with_zero(d));
    } else {
        flush_zero_run(d);
        reserve(d, 1, 0);
        add_literal(d, filter_byte);
        d->tail = d->tail >> 8 | (uint32_t)filter_byte << 24;
    }
    d->started = 1;
    d->adler_a = (d->adler_a + filter_byte) % ADLER_BASE;
    d->adler_b = (d->adler_b + d->adler_a) % ADLER_BASE;
    add_zeros(d, begin, stream_ends_with_zero(d));
    adler_zeros(d, begin);
    if (end > begin) {
        uint8_t *filtered = d->candidate[filter];
        /* The stream's four bytes before the span, for repeats that start at its first byte. */
        for (size_t k = 0; k < 4; k++) filtered[begin - 4 + k] = (uint8_t)(d->tail >> (8 * k));
        add_bytes(d, filtered + begin, end - begin);
        adler_bytes(d, filtered + begin, end - begin);
    }
    add_zeros(d, n - end, stream_ends_with_zero(d));
    adler_zeros(d, n - end);
    if (d->literal_count + d->sequence_count >= BLOCK_TOKENS) write_block(d, 0);
    return d->failed;
}

int kf_frame_deflate_end(kf_frame_deflate *d, const uint8_t **stream, size_t *count) {
    if (d->failed) return 1;
    flush_zero_run(d);
    write_block(d, 1);
    if (d->failed || reserve_output(d, 16)) return 1;
    align_to_byte(d);
    uint32_t adler = d->adler_b << 16 | d->adler_a;
    d->out[d->out_count++] = (uint8_t)(adler >> 24);
    d->out[d->out_count++] = (uint8_t)(adler >> 16);
    d->out[d->out_count++] = (uint8_t)(adler >> 8);
    d->out[d->out_count++] = (uint8_t)adler;
    *stream = d->out;
    *count = d->out_count;
    return 0;
}
