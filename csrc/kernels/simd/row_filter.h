/*
 * row_filter.h - the row scan's blocks where ISA_FILTER_SCAN is 1 (32- and
 * 64-bit integer lanes, for_each_lane.h): each block is first tested
 * against the best so far (v_filter), and only blocks that may beat it are
 * ranked, since keeping lane maxima would cost an emulated maximum per
 * vector.
 */

/* Whether the block at q may hold a key above the best (last: not below),
   thr being v_filter_threshold's for that best. */
VINLINE int L(filter_block)(const char *q, vec thr, int op, int kind, int64_t inf, int sw, int ahead)
{
    if (ahead)
        prefetch_block(q);
    vec any = L(v_filter)(L(keys_at)(q, op, kind, inf, sw), thr);
    for (int k = 1; k < BLOCK_VECS; k++)
        any = v_or(any, L(v_filter)(L(keys_at)(q + k * V_BYTES, op, kind, inf, sw), thr));
    return L(v_filter_any)(any);
}

/* Whole blocks from *i on; returns 1 once nothing can beat the best. A row's
   first block sets the best (st->force); a new best, a new threshold. */
VINLINE int L(row_filtered)(row_state *st, const char *p, int64_t n, int64_t *i, int last, int op,
                            int kind, int64_t inf, int sw)
{
    const int64_t block = (V_BYTES / W) * BLOCK_VECS;
    vec thr = L(v_set1)(-1);
    int64_t thr_best = st->best;
    int filtered = !st->force && L(v_filter_threshold)(st->best, last, &thr);
    for (; *i + block <= n; *i += block) {
        const char *q0 = p + *i * W;
        if (!st->force && thr_best != st->best) {
            thr_best = st->best;
            filtered = L(v_filter_threshold)(st->best, last, &thr);
        }
        if (filtered && !st->force && !L(filter_block)(q0, thr, op, kind, inf, sw, st->ahead))
            continue;
        if (L(row_block)(st, q0, *i, BLOCK_VECS, L(block_max)(q0, op, kind, inf, sw, st->ahead), last, op,
                         kind, inf, sw))
            return 1;
    }
    return 0;
}
