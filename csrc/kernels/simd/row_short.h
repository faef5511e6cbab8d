/*
 * row_short.h - rows shorter than a vector, in one masked vector, where
 * ISA_MASKED_LOAD is 1 (for_each_lane.h).
 */

/* A whole contiguous row of 1 <= n < V_BYTES / W elements, in one masked
   vector whose lanes outside the row hold the lowest key. */
VINLINE int64_t L(row_short)(const char *p, int64_t n, int last, int op, int kind, int64_t inf)
{
    const uint64_t active = (UINT64_C(1) << n) - 1;
    vec k = L(v_sel_active)(active, L(v_keys)(L(v_load_active)(p, active), op, kind, inf),
                            L(v_set1)(SMIN(W)));
    int group = W;
    while (group < n * W)
        group *= 2; /* the lanes past the row hold the lowest key: skip them */
    uint64_t e = L(v_eq)(k, L(v_hmax_within)(k, group)) & active;
    return last ? msb64(e) : ctz64(e);
}
