/*
 * row_floats.h - the row scan's chunks of float32/float64 by float
 * compares, which take fewer instructions than keys (for_each_lane.h, the
 * lanes with a float type): the float extreme is keyed once, at the end
 * (the key is monotone, and -0.0 and +0.0 compare equal in both).
 */

/* Four vectors at q as floats (v_load_floats) into x; their NaN lanes are
   or-ed into *nan where a NaN must be seen (MAX and MIN, where the float
   extreme may drop it). */
VINLINE void F(load_floats4)(vec x[4], const char *q, int op, int64_t inf, int sw, fmask *nan)
{
    for (int j = 0; j < 4; j++)
        x[j] = F(v_load_floats)(q + j * V_BYTES, op, inf, sw);
    if (!ARGEXT_OP_SKIPS_NAN(op) && !ISA_FMAX_KEEPS_NAN)
        *nan = v_for(*nan, v_for(F(v_funord)(x[0], x[1]), F(v_funord)(x[2], x[3])));
}

/* Float extreme, per lane, of the BLOCK_VECS vectors at q. */
VINLINE vec F(block_ext)(const char *q, int op, int64_t inf, int sw, int ahead, fmask *nan)
{
    const int is_min = ARGEXT_OP_IS_MIN(op);
    vec e[4];
    if (ahead)
        prefetch_block(q);
    F(load_floats4)(e, q, op, inf, sw, nan);
    for (int k = 4; k < BLOCK_VECS; k += 4) {
        vec x[4];
        F(load_floats4)(x, q + k * V_BYTES, op, inf, sw, nan);
        for (int j = 0; j < 4; j++)
            e[j] = F(v_fext)(is_min, e[j], x[j]);
    }
    return F(v_fext)(is_min, F(v_fext)(is_min, e[0], e[1]), F(v_fext)(is_min, e[2], e[3]));
}

/* chunk_keys by float compares. Returns 0, with nothing set, when the chunk
   holds a NaN: chunk_keys then ranks it. The NaN-skipping operators read a
   NaN as the infinity that never wins (their key, dtypes.h), so their
   chunks need no NaN test. */
VINLINE int F(chunk_floats)(const char *q0, int64_t nb, int last, vec *maxv, vec *bidx, int op,
                            int kind, int64_t inf, int sw, int ahead)
{
    const int64_t block = (V_BYTES / W) * BLOCK_VECS;
    const int is_min = ARGEXT_OP_IS_MIN(op), skips_nan = ARGEXT_OP_SKIPS_NAN(op);
    const vec minus_one = L(v_set1)(-1);
    vec ext = L(v_set1)(0), bi = L(v_set1)(0), cur = L(v_set1)(0);
    fmask nan = F(v_fgt)(ext, ext); /* none */
    for (int64_t b = 0; b < nb; b++) {
        vec acc = F(block_ext)(q0 + b * block * W, op, inf, sw, ahead, &nan);
        if (b == 0) {
            ext = acc;
        } else {
            bi = F(v_fblend)(F(v_fbetter)(acc, ext, is_min, last), bi, cur);
            ext = F(v_fext)(is_min, ext, acc);
        }
        cur = L(v_sub)(cur, minus_one);
    }
    if (ISA_FMAX_KEEPS_NAN && !skips_nan)
        nan = F(v_funord)(ext, ext);
    if (v_fany(nan))
        return 0;
    *maxv = L(v_keys)(ext, op, kind, inf);
    *bidx = bi;
    return 1;
}
