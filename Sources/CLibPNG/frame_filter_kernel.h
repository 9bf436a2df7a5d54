/*
 * The vector body of frame_deflate.c's filter_span, written once for every vector width: frame_deflate.c includes
 * this file once per width, with these defined:
 *   KF_KERNEL       the function's name (and attributes);  KF_VECTOR  the vector type;  KF_WIDTH  its bytes;
 *   KF_OP(name)     the width's intrinsic for an element operation (_mm_name, _mm256_name);
 *   KF_LOAD, KF_STORE, KF_ZERO, KF_AND, KF_OR, KF_ANDNOT, KF_XOR   the width's whole-vector intrinsics.
 * and undefines them at its end, so that the next width can define them again.
 *
 * Filters bytes [begin, end) of `row` (above: `up`; both readable from bpp bytes before begin to KF_WIDTH − 1 bytes
 * past end) with every `allowed` filter into `candidate` (writable that far past end) and adds each filter's sum of
 * absolute values (as signed bytes) over [begin, end) to `cost`. Pure integer arithmetic: the same sums as the
 * scalar path.
 */

KF_KERNEL(const uint8_t *row, const uint8_t *up, size_t begin, size_t end, size_t bpp, int allowed,
          uint8_t *const candidate[FILTER_COUNT], uint64_t cost[FILTER_COUNT]) {
    static const uint8_t lane_index[32] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                           16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
    uint8_t *none_out = candidate[FILTER_NONE], *sub_out = candidate[FILTER_SUB];
    uint8_t *up_out = candidate[FILTER_UP], *avg_out = candidate[FILTER_AVG];
    uint8_t *paeth_out = candidate[FILTER_PAETH];
    const KF_VECTOR zero = KF_ZERO(), one = KF_OP(set1_epi8)(1);
    KF_VECTOR c_none = zero, c_sub = zero, c_up = zero, c_avg = zero, c_paeth = zero;
    KF_VECTOR keep = KF_OP(set1_epi8)(-1);
#define KF_COST(acc, v)                                                                                            \
    acc = KF_OP(add_epi64)(acc, KF_OP(sad_epu8)(KF_AND(KF_OP(min_epu8)(v, KF_OP(sub_epi8)(zero, v)), keep), zero))
    for (size_t x = begin; x < end; x += KF_WIDTH) {
        if (end - x < KF_WIDTH) {
            /* The last, partial vector: bytes past `end` must not count. */
            keep = KF_OP(cmpgt_epi8)(KF_OP(set1_epi8)((char)(end - x)), KF_LOAD((const KF_VECTOR *)lane_index));
        }
        KF_VECTOR c = KF_LOAD((const KF_VECTOR *)(row + x));
        KF_VECTOR a = KF_LOAD((const KF_VECTOR *)(row + x - bpp));
        KF_VECTOR b = KF_LOAD((const KF_VECTOR *)(up + x));
        if (allowed & BIT_NONE) {
            KF_STORE((KF_VECTOR *)(none_out + x), c);
            KF_COST(c_none, c);
        }
        if (allowed & BIT_SUB) {
            KF_VECTOR v = KF_OP(sub_epi8)(c, a);
            KF_STORE((KF_VECTOR *)(sub_out + x), v);
            KF_COST(c_sub, v);
        }
        if (allowed & BIT_UP) {
            KF_VECTOR v = KF_OP(sub_epi8)(c, b);
            KF_STORE((KF_VECTOR *)(up_out + x), v);
            KF_COST(c_up, v);
        }
        if (allowed & BIT_AVG) {
            KF_VECTOR mean = KF_OP(sub_epi8)(KF_OP(avg_epu8)(a, b), KF_AND(KF_XOR(a, b), one));
            KF_VECTOR v = KF_OP(sub_epi8)(c, mean);
            KF_STORE((KF_VECTOR *)(avg_out + x), v);
            KF_COST(c_avg, v);
        }
        if (allowed & BIT_PAETH) {
            /* pa = |b − c|, pb = |a − c|, pc = |a + b − 2c| (c: above-left), all in bytes: when b − c and a − c have
             * the same sign pc = pa + pb (saturated at 255, which keeps every comparison below right), otherwise
             * pc = |pa − pb|. */
            KF_VECTOR ul = KF_LOAD((const KF_VECTOR *)(up + x - bpp));
            KF_VECTOR pa = KF_OR(KF_OP(subs_epu8)(b, ul), KF_OP(subs_epu8)(ul, b));
            KF_VECTOR pb = KF_OR(KF_OP(subs_epu8)(a, ul), KF_OP(subs_epu8)(ul, a));
            KF_VECTOR b_below = KF_OP(cmpeq_epi8)(KF_OP(max_epu8)(b, ul), ul); /* b ≤ c */
            KF_VECTOR a_below = KF_OP(cmpeq_epi8)(KF_OP(max_epu8)(a, ul), ul); /* a ≤ c */
            KF_VECTOR same = KF_OP(cmpeq_epi8)(b_below, a_below);
            KF_VECTOR sum = KF_OP(adds_epu8)(pa, pb);
            KF_VECTOR difference = KF_OR(KF_OP(subs_epu8)(pa, pb), KF_OP(subs_epu8)(pb, pa));
            KF_VECTOR pc = KF_OR(KF_AND(same, sum), KF_ANDNOT(same, difference));
            KF_VECTOR pa_le_pb = KF_OP(cmpeq_epi8)(KF_OP(min_epu8)(pa, pb), pa);
            KF_VECTOR pa_le_pc = KF_OP(cmpeq_epi8)(KF_OP(min_epu8)(pa, pc), pa);
            KF_VECTOR pb_le_pc = KF_OP(cmpeq_epi8)(KF_OP(min_epu8)(pb, pc), pb);
            KF_VECTOR take_a = KF_AND(pa_le_pb, pa_le_pc);
            KF_VECTOR b_or_c = KF_OR(KF_AND(pb_le_pc, b), KF_ANDNOT(pb_le_pc, ul));
            KF_VECTOR predictor = KF_OR(KF_AND(take_a, a), KF_ANDNOT(take_a, b_or_c));
            KF_VECTOR v = KF_OP(sub_epi8)(c, predictor);
            KF_STORE((KF_VECTOR *)(paeth_out + x), v);
            KF_COST(c_paeth, v);
        }
    }
#undef KF_COST
    const KF_VECTOR accumulators[FILTER_COUNT] = {c_none, c_sub, c_up, c_avg, c_paeth};
    for (int f = 0; f < FILTER_COUNT; f++) {
        uint64_t lanes[KF_WIDTH / 8];
        KF_STORE((KF_VECTOR *)lanes, accumulators[f]);
        for (int k = 0; k < KF_WIDTH / 8; k++) cost[f] += lanes[k];
    }
}

#undef KF_KERNEL
#undef KF_VECTOR
#undef KF_WIDTH
#undef KF_OP
#undef KF_LOAD
#undef KF_STORE
#undef KF_ZERO
#undef KF_AND
#undef KF_OR
#undef KF_ANDNOT
#undef KF_XOR
