/*
 * row_short.h - rows shorter than a vector (for_each_lane.h), each in one
 * vector: a masked one where ISA_MASKED_LOAD is 1, else a whole vector
 * read where it stays inside the input (the rows after it), its lanes past
 * the row set to the lowest key.
 */

/* The first (last) lane of the key maximum of a row's keys k (lanes 0 to
   n - 1; the lanes past them hold the lowest key, so the maximum is taken
   within the smallest power-of-two group holding the row). */
VINLINE int64_t L(row_short_index)(vec k, int64_t n, int last)
{
    const uint64_t active = (UINT64_C(1) << (n * MASK_BITS(W))) - 1;
    int group = W;
    while (group < n * W)
        group *= 2;
    const uint64_t e = L(v_eq)(k, L(v_hmax_within)(k, group)) & active;
    return (last ? msb64(e) : ctz64(e)) / MASK_BITS(W);
}

#if ISA_MASKED_LOAD
/* A whole contiguous row of 1 <= n < V_BYTES / W elements, in one masked
   vector. */
VINLINE int64_t L(row_short)(const char *p, int64_t n, int last, int op, int kind, int64_t inf)
{
    const uint64_t active = (UINT64_C(1) << n) - 1;
    const vec k = L(v_keys)(L(v_load_active)(p, active), op, kind, inf);
    return L(row_short_index)(L(v_sel_active)(active, k, L(v_set1)(SMIN(W))), n, last);
}
#else
/* The whole contiguous row of 2 <= n < V_BYTES / W elements at p, read
   with the lanes after it (they lie in the input); `lanes` holds each
   lane's number. */
VINLINE int64_t L(row_short_loaded)(const char *p, int64_t n, int last, vec lanes, int op, int kind,
                                    int64_t inf)
{
    const vec k = L(keys_at)(p, op, kind, inf, 0);
    return L(row_short_index)(L(v_sel_gt)(lanes, L(v_set1)(n - 1), k, L(v_set1)(SMIN(W))), n, last);
}

/* Rows of 2 <= n < V_BYTES / W elements, count of them from p at byte
   stride ps >= n * W: those whose vector ends inside the input, each in
   one vector and no branch on its values (the baseline's scalar loop
   mispredicts about once a row: float32 rows of 3 from DRAM read 0.8 GB/s
   on Zen 3). Returns how many rows it took. */
VINLINE int64_t L(rows_short)(const char *p, int64_t count, int64_t ps, int64_t n, int last,
                              int64_t *idx, int op, int kind, int64_t inf)
{
    const int64_t end = (count - 1) * ps + n * W; /* the input's bytes from p */
    const int64_t fit = end >= V_BYTES ? (end - V_BYTES) / ps + 1 : 0;
    LANE_INT lane[V_BYTES / W];
    for (int64_t l = 0; l < V_BYTES / W; l++)
        lane[l] = (LANE_INT)l;
    const vec lanes = v_load((const char *)lane);
    for (int64_t k = 0; k < fit; k++)
        idx[k] = L(row_short_loaded)(p + k * ps, n, last, lanes, op, kind, inf);
    return fit;
}
#endif
