/*
 * rows_mid.h - contiguous rows of medium length, one lane width
 * (for_each_lane.h): rows of n elements, from one vector to MID_ROW_VECS
 * vectors, any n. Each row is read as its whole vectors and one last vector
 * ending at the row's end (overlapping the ones before when n is not a
 * multiple of the lanes): their maximum by a tree, one horizontal maximum,
 * then each vector's lanes equal to it, the first (last) such lane taken
 * without a branch. A lane the last vector repeats holds the same bit in
 * the vector before it: the first-occurrence pass meets the earlier copy
 * after it, and the last-occurrence pass takes the copy itself, at its own
 * index. float32/float64 compare as floats, and rows holding a NaN by keys
 * (as the dense path does). No data-dependent branch but the NaN test: the
 * row scan's chunk bookkeeping costs more than these rows take.
 */

/* The index of the row's first (last) lane set in bits, the vector's bits
   for the lanes from element `at` on, folded into pos: later calls win, so
   `first` passes the vectors from the row's end, `last` from its start. */
VINLINE int64_t L(mid_fold)(int64_t pos, uint64_t bits, int64_t at, int last)
{
    const int64_t lb = MASK_BITS(W);
    const int64_t c = at + (last ? msb64(bits | 1) : ctz64(bits | (UINT64_C(1) << 63))) / lb;
    const uint64_t keep = (uint64_t)0 - (uint64_t)(bits == 0); /* a select, not a branch */
    return (int64_t)(((uint64_t)pos & keep) | ((uint64_t)c & ~keep));
}

#ifdef FLANE
/* The row at q by float compares: 1 and its index in *out, or 0 when the
   row holds a NaN that must be ranked (MAX and MIN; the NaN-skipping
   operators read a NaN as the infinity that never wins, as their keys do). */
VINLINE int F(mid_row_floats)(const char *q, int64_t n, int last, int64_t *out, int op, int64_t inf)
{
    const int64_t lanes = V_BYTES / W, nv = (n - 1) / lanes; /* whole vectors before the last */
    const int is_min = ARGEXT_OP_IS_MIN(op), skips_nan = ARGEXT_OP_SKIPS_NAN(op);
    const char *tail = q + (n - lanes) * W;
    const vec t = F(v_load_floats)(tail, op, inf, 0);
    vec e[4] = {t, t, t, t}; /* four chains in flight */
    fmask nan = F(v_funord)(t, t);
    int64_t v = 0;
    for (; v + 4 <= nv; v += 4) {
        vec x[4];
        for (int j = 0; j < 4; j++) {
            x[j] = F(v_load_floats)(q + (v + j) * V_BYTES, op, inf, 0);
            e[j] = F(v_fext)(is_min, e[j], x[j]);
        }
        nan = v_for(nan, v_for(F(v_funord)(x[0], x[1]), F(v_funord)(x[2], x[3])));
    }
    for (int j = 0; j < 3 && v + j < nv; j++) { /* up to three */
        vec x = F(v_load_floats)(q + (v + j) * V_BYTES, op, inf, 0);
        e[j] = F(v_fext)(is_min, e[j], x);
        nan = v_for(nan, F(v_funord)(x, x));
    }
    if (!skips_nan && v_fany(nan))
        return 0;
    const vec x = F(v_fext)(is_min, F(v_fext)(is_min, e[0], e[1]), F(v_fext)(is_min, e[2], e[3]));
    const vec m = L(v_hext_within)(x, V_BYTES, 1, is_min);
    int64_t pos = 0;
    if (last) {
        for (v = 0; v < nv; v++)
            pos = L(mid_fold)(pos, v_fbits(F(v_feq)(F(v_load_floats)(q + v * V_BYTES, op, inf, 0), m)),
                              v * lanes, 1);
        pos = L(mid_fold)(pos, v_fbits(F(v_feq)(t, m)), n - lanes, 1);
    } else {
        pos = L(mid_fold)(pos, v_fbits(F(v_feq)(t, m)), n - lanes, 0);
        for (v = nv - 1; v >= 0; v--)
            pos = L(mid_fold)(pos, v_fbits(F(v_feq)(F(v_load_floats)(q + v * V_BYTES, op, inf, 0), m)),
                              v * lanes, 0);
    }
    *out = pos;
    return 1;
}
#endif

/* The same in keys, for every dtype. */
VINLINE int64_t L(mid_row_keys)(const char *q, int64_t n, int last, int op, int kind, int64_t inf)
{
    const int64_t lanes = V_BYTES / W, nv = (n - 1) / lanes;
    const vec t = L(keys_at)(q + (n - lanes) * W, op, kind, inf, 0);
    vec a[4] = {t, t, t, t};
    int64_t v = 0;
    for (; v + 4 <= nv; v += 4)
        for (int j = 0; j < 4; j++)
            a[j] = L(v_max)(a[j], L(keys_at)(q + (v + j) * V_BYTES, op, kind, inf, 0));
    for (int j = 0; j < 3 && v + j < nv; j++) /* up to three */
        a[j] = L(v_max)(a[j], L(keys_at)(q + (v + j) * V_BYTES, op, kind, inf, 0));
    const vec m = L(v_hmax)(L(v_max)(L(v_max)(a[0], a[1]), L(v_max)(a[2], a[3])));
    int64_t pos = 0;
    if (last) {
        for (v = 0; v < nv; v++)
            pos = L(mid_fold)(pos, L(v_eq)(L(keys_at)(q + v * V_BYTES, op, kind, inf, 0), m), v * lanes, 1);
        pos = L(mid_fold)(pos, L(v_eq)(t, m), n - lanes, 1);
    } else {
        pos = L(mid_fold)(pos, L(v_eq)(t, m), n - lanes, 0);
        for (v = nv - 1; v >= 0; v--)
            pos = L(mid_fold)(pos, L(v_eq)(L(keys_at)(q + v * V_BYTES, op, kind, inf, 0), m), v * lanes, 0);
    }
    return pos;
}

/* Rows of n elements (V_BYTES / W <= n <= mid_row_max), the p + k * ps
   for k < count: their indices. */
VINLINE void L(rows_mid)(const char *p, int64_t count, int64_t ps, int64_t n, int last, int64_t *idx,
                         int op, int kind, int64_t inf, int floats)
{
    for (int64_t k = 0; k < count; k++, p += ps) {
        prefetch_ahead(p, n * W); /* as a row scan asks (off where that is slower) */
#ifdef FLANE
        if (floats && F(mid_row_floats)(p, n, last, idx + k, op, inf))
            continue;
#endif
        (void)floats;
        idx[k] = L(mid_row_keys)(p, n, last, op, kind, inf);
    }
}
