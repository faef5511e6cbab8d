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

/* Key maximum, per lane, of the BLOCK_VECS vectors at q (four in flight). */
VINLINE vec L(block_max)(const char *q, int op, int kind, int64_t inf, int sw)
{
    vec a[4];
    prefetch_block(q);
    for (int k = 0; k < 4; k++)
        a[k] = L(keys_at)(q + k * V_BYTES, op, kind, inf, sw);
    for (int k = 4; k < BLOCK_VECS; k++)
        a[k % 4] = L(v_max)(a[k % 4], L(keys_at)(q + k * V_BYTES, op, kind, inf, sw));
    return L(v_max)(L(v_max)(a[0], a[1]), L(v_max)(a[2], a[3]));
}

#ifdef FLANE
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
