/*
 * keys.h - lanes as keys (dtypes.h), of one lane width (for_each_lane.h).
 * Keys are held as signed lanes of the element's width: unsigned keys get
 * their sign bit flipped, so one signed comparison orders every dtype; the
 * kernels' `best` buffers keep the dtypes.h key type.
 */

/* Keys of the lanes of v for operator op (ops.h) and dtype kind. */
VINLINE vec L(v_keys)(vec v, int op, int kind, int64_t inf)
{
    if (kind == ARGEXT_KIND_FLOAT) {
        vec m = v_and(v, L(v_set1)(SMAX(W)));
        vec s = L(v_sign)(v);
        vec k = L(v_sub)(v_xor(m, s), s);
        if (ARGEXT_OP_IS_MIN(op))
            k = v_xor(k, L(v_set1)(-1));
        int64_t nan_key = !ARGEXT_OP_SKIPS_NAN(op) ? SMAX(W)       /* NaN wins */
                          : ARGEXT_OP_IS_MIN(op)      ? ~inf : -inf; /* NaN as +-inf */
        return L(v_sel_gt)(m, L(v_set1)(inf), k, L(v_set1)(nan_key));
    }
    int64_t flip = (ARGEXT_OP_IS_MIN(op) ? -1 : 0) ^ (kind == ARGEXT_KIND_UNSIGNED ? SMIN(W) : 0);
    return flip ? v_xor(v, L(v_set1)(flip)) : v;
}

/* A key of the dtypes.h key type <-> its signed lane value. */
VINLINE int64_t L(key_to_lane)(const void *key, int kind)
{
    LANE_INT lane;
    memcpy(&lane, key, W);
    return kind == ARGEXT_KIND_UNSIGNED ? (LANE_INT)(lane ^ SMIN(W)) : lane;
}

VINLINE void L(lane_to_key)(int64_t lane, void *key, int kind)
{
    LANE_INT k = (LANE_INT)(kind == ARGEXT_KIND_UNSIGNED ? lane ^ SMIN(W) : lane);
    memcpy(key, &k, W);
}

/* The vector at q in native order: a scan reads input of the opposite byte
   order (sw) in place, swapping each vector as it loads it. */
VINLINE vec L(v_load_row)(const char *q, int sw) { return sw ? L(v_bswap)(v_load(q)) : v_load(q); }

VINLINE vec L(keys_at)(const char *q, int op, int kind, int64_t inf, int sw)
{
    return L(v_keys)(L(v_load_row)(q, sw), op, kind, inf);
}

/* Key maximum, per lane, of the BLOCK_VECS vectors at q (four in flight).
   Vectors k and k + 4 pair up, except for 64-byte vectors (a line each),
   which pair with their neighbours: the compiler then loads them in
   address order, not lines 4, 0, 5, 1, ..., which on Zen 4 read int8,
   int16 and uint32 rows from L3 at 72 GB/s against 97 in order (4 MiB,
   1.22-1.37x). Narrower vectors measured 0.90-0.95x in order (avx2,
   sse4.2). */
VINLINE vec L(block_max)(const char *q, int op, int kind, int64_t inf, int sw, int ahead)
{
    vec a[4];
    if (ahead)
        prefetch_block(q);
    if (V_BYTES == 64) {
        for (int k = 0; k < BLOCK_VECS / 2; k++) {
            vec pair = L(v_max)(L(keys_at)(q + 2 * k * V_BYTES, op, kind, inf, sw),
                                L(keys_at)(q + (2 * k + 1) * V_BYTES, op, kind, inf, sw));
            a[k % 4] = k < 4 ? pair : L(v_max)(a[k % 4], pair);
        }
    } else {
        for (int k = 0; k < 4; k++)
            a[k] = L(keys_at)(q + k * V_BYTES, op, kind, inf, sw);
        for (int k = 4; k < BLOCK_VECS; k++)
            a[k % 4] = L(v_max)(a[k % 4], L(keys_at)(q + k * V_BYTES, op, kind, inf, sw));
    }
    return L(v_max)(L(v_max)(a[0], a[1]), L(v_max)(a[2], a[3]));
}

/* A threshold's bit form (bits_thr): 16-bit float lanes (float16,
   bfloat16: no float compares at any level) tested against a key on
   their bits, where keys take seven instructions a vector (TopK's
   threshold, the row scan's best; NaN ranked first, as argmax and TopK
   rank it). A lane is above the threshold
   exactly where its bits x as int16 are above ra or, with the sign
   flipped, above rb (`two`: the lanes at or below it are two ranges of
   x as uint16), else where (x ^ f) - d is above ra (one range). */
typedef struct {
    vec ra, rb, f, d;
    int two;
} L(bits_form);

/* The bit form of the threshold key thr (MIN: a key is ~ the value;
   -0.0 is +0.0) into *b; 0 for none (thresholds beyond infinity, and MIN's
   -1):
   - MAX, 0 <= thr <= inf: positive numbers above thr and NaN of either sign
     (x above inf with the sign flipped);
   - MIN, 0 <= thr < inf (a negative threshold): negative numbers of
     magnitude above thr + 1 (x with the sign flipped above thr + 1), NaN;
   - MAX, -inf <= thr < 0: every x outside [SMIN - thr, SMIN | inf] as
     uint16: inf - x = ~x - (-inf - 1) as int16 above thr + inf + SMIN;
   - MIN, thr <= -2 (a positive threshold P = ~thr, 1 <= P <= inf): every x
     outside [P, inf]: x - P + 0x8000 as int16 above inf - P + SMIN. */
VINLINE int L(bits_thr)(int64_t thr, int op, int kind, int64_t inf, L(bits_form) *b)
{
    const int is_min = ARGEXT_OP_IS_MIN(op);
    b->ra = b->rb = b->f = b->d = L(v_set1)(0); /* set either way: no use of an unset one */
    b->two = 0;
    if (W != 2 || kind != ARGEXT_KIND_FLOAT || ARGEXT_OP_SKIPS_NAN(op) || thr > inf || (is_min && thr == inf) ||
        thr < -inf - is_min || (is_min && thr == -1))
        return 0;
    b->two = thr >= 0;
    b->ra = L(v_set1)(thr >= 0 ? (is_min ? inf : thr)
                               : is_min ? inf + thr + 1 + SMIN(W) : thr + inf + SMIN(W));
    b->rb = L(v_set1)(is_min ? thr + 1 : inf);
    b->f = L(v_set1)(is_min ? 0 : -1);
    b->d = L(v_set1)(is_min ? -thr - 1 + SMIN(W) : -inf - 1);
    return 1;
}

/* Whether the block at q holds a lane above the threshold of bit form b:
   by the maxima of its bits as topk_bits tests them. */
VINLINE int L(bits_block)(const char *q, const L(bits_form) *b, int sw, int ahead)
{
    const vec flip = L(v_set1)(SMIN(W));
    if (ahead)
        prefetch_block(q);
    if (b->two) {
        vec hi = L(v_load_row)(q, sw), hi_flipped = v_xor(hi, flip);
        for (int v = 1; v < BLOCK_VECS; v++) {
            const vec x = L(v_load_row)(q + v * V_BYTES, sw);
            hi = L(v_max)(hi, x);
            hi_flipped = L(v_max)(hi_flipped, v_xor(x, flip));
        }
        return (L(v_gt)(hi, b->ra) | L(v_gt)(hi_flipped, b->rb)) != 0;
    }
    vec hi = L(v_sub)(v_xor(L(v_load_row)(q, sw), b->f), b->d);
    for (int v = 1; v < BLOCK_VECS; v++)
        hi = L(v_max)(hi, L(v_sub)(v_xor(L(v_load_row)(q + v * V_BYTES, sw), b->f), b->d));
    return L(v_gt)(hi, b->ra) != 0;
}

/* The bits of the lanes of the vector of raw bits x above the threshold
   of bit form b. */
VINLINE uint64_t L(bits_above)(const L(bits_form) *b, vec x)
{
    if (b->two)
        return L(v_gt)(x, b->ra) | L(v_gt)(v_xor(x, L(v_set1)(SMIN(W))), b->rb);
    return L(v_gt)(L(v_sub)(v_xor(x, b->f), b->d), b->ra);
}

#ifdef FLANE
/* Float lanes from their keys (v_keys inverted): -0.0 comes back as +0.0,
   a NaN as the NaN of bits SMAX (its key). */
VINLINE vec F(v_floats_of_keys)(vec k, int op)
{
    const vec m = ARGEXT_OP_IS_MIN(op) ? v_xor(k, L(v_set1)(-1)) : k, s = L(v_sign)(m);
    const vec x = v_or(L(v_sub)(v_xor(m, s), s), v_and(s, L(v_set1)(SMIN(W))));
    return L(v_sel_gt)(k, L(v_set1)(SMAX(W) - 1), x, k);
}

/* Float lanes at q as the float scans compare them: the NaN-skipping
   operators read a NaN as the infinity that never wins (-inf for
   nanargmax, +inf for nanargmin), as their keys do (dtypes.h). */
VINLINE vec F(v_load_floats)(const char *q, int op, int64_t inf, int sw)
{
    const int is_min = ARGEXT_OP_IS_MIN(op);
    const vec loser = L(v_set1)(is_min ? inf : (int64_t)((uint64_t)inf | (UINT64_C(1) << (WBITS - 1))));
    vec x = L(v_load_row)(q, sw);
    return ARGEXT_OP_SKIPS_NAN(op) ? F(v_fext_num)(is_min, x, loser) : x;
}
#endif
