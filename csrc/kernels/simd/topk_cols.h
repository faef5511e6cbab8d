/*
 * topk_cols.h - TopK's column kernel of one lane width (for_each_lane.h):
 * each of a block of contiguous columns keeps its k best (keys and row
 * tags, one vector per rank slot and block of lanes), updated row by row
 * by a compare-and-shift network, branch-free across the lanes.
 *
 * A row enters a column after every key at or above its own: the rows
 * come in increasing order, so one strict comparison keeps the tie rule.
 * Row tags are lanes of the key's width, so they count rows within a chunk
 * (<= SMAX(W) + 1 rows); at a chunk's end they become int64 rows in idx,
 * and the slots' tags -1 - t, "what idx slot t held".
 */

/* Rows per chunk: the tags of the chunk's rows fit the lane. */
VINLINE int64_t L(topk_cols_chunk)(void) { return W == 1 ? 128 : W == 2 ? 32768 : INT64_C(1) << 30; }

/* The row's keys x (tag `tag`) into the slots of one vector of columns
   (slot t's keys at keys + t * slot bytes, its tags likewise), m of k
   filled. Slot t takes, where x beats it, the larger of x and slot t - 1.
   (v_sel_gt(x, y, a, b) is x > y ? b : a.) */
VINLINE void L(topk_cols_insert)(vec x, vec tag, char *keys, char *tags, int64_t slot, int64_t m,
                                 int64_t k)
{
    int64_t t = m < k ? m : k - 1;
    vec cur, cur_tag;
    if (m == 0) {
        v_store(keys, x);
        v_store(tags, tag);
        return;
    }
    if (m < k) { /* slot t is empty: it takes x or what x moves down */
        cur = v_load(keys + (t - 1) * slot), cur_tag = v_load(tags + (t - 1) * slot);
        v_store(keys + t * slot, L(v_sel_gt)(x, cur, x, cur));
        v_store(tags + t * slot, L(v_sel_gt)(x, cur, tag, cur_tag));
        t--;
    } else {
        cur = v_load(keys + t * slot), cur_tag = v_load(tags + t * slot);
    }
    for (; t > 0; t--) {
        vec prev = v_load(keys + (t - 1) * slot), prev_tag = v_load(tags + (t - 1) * slot);
        vec down = L(v_sel_gt)(x, prev, x, prev), down_tag = L(v_sel_gt)(x, prev, tag, prev_tag);
        v_store(keys + t * slot, L(v_sel_gt)(x, cur, cur, down));
        v_store(tags + t * slot, L(v_sel_gt)(x, cur, cur_tag, down_tag));
        cur = prev, cur_tag = prev_tag;
    }
    v_store(keys, L(v_sel_gt)(x, cur, cur, x));
    v_store(tags, L(v_sel_gt)(x, cur, cur_tag, tag));
}

/* Rows [r0, r1) of a chunk starting at row c0 into nc columns (whole
   vectors); a full column block skips a vector none of whose keys beats
   its k-th. Each vector asks memory for the same row's next block (the
   engine's next call, likely), a block's time ahead; the address may lie
   past the input: it is formed as an integer. */
VINLINE void L(topk_cols_rows)(const char *p, int64_t r0, int64_t r1, int64_t c0, int64_t rs,
                               int64_t nc, int64_t k, int64_t ld, char *keys, char *tags, int op,
                               int kind, int64_t inf, int sw)
{
    const int64_t slot = ld * W, last = (k - 1) * slot;
    for (int64_t r = r0; r < r1; r++) {
        const char *q = p + r * rs;
        const int64_t m = r < k ? r : k;
        const vec tag = L(v_set1)(r - c0);
        for (int64_t j = 0; j < nc; j += V_BYTES / W) {
            argext_prefetch((const char *)((uintptr_t)q + (uintptr_t)((nc + j) * W)));
            vec x = L(keys_at)(q + j * W, op, kind, inf, sw);
            if (m == k && !L(v_gt)(x, v_load(keys + last + j * W)))
                continue;
            L(topk_cols_insert)(x, tag, keys + j * W, tags + j * W, slot, m, k);
        }
    }
}

/* A chunk's tags (rows from c0) into idx, and the slots' tags reset. */
VINLINE void L(topk_cols_untag)(int64_t c0, int64_t nc, int64_t k, int64_t ld, int64_t *idx,
                                LANE_INT *tags)
{
    int64_t held[ARGEXT_TOPK_COLS_K];
    for (int64_t j = 0; j < nc; j++) {
        for (int64_t t = 0; t < k; t++)
            held[t] = idx[t * ld + j];
        for (int64_t t = 0; t < k; t++) {
            int64_t g = tags[t * ld + j];
            idx[t * ld + j] = g >= 0 ? c0 + g : held[-1 - g];
            tags[t * ld + j] = (LANE_INT)(-1 - t);
        }
    }
}

/* nc columns (whole vectors) over all rows, chunk by chunk. */
VINLINE void L(topk_cols_block)(const char *p, int64_t rows, int64_t rs, int64_t nc, int64_t k,
                                int64_t ld, int64_t *idx, void *work, int op, int kind,
                                int64_t inf, int sw)
{
    char *keys = (char *)work, *tags = keys + k * ld * W;
    for (int64_t c0 = 0; c0 < rows; c0 += L(topk_cols_chunk)()) {
        int64_t c1 = rows - c0 < L(topk_cols_chunk)() ? rows : c0 + L(topk_cols_chunk)();
        L(topk_cols_rows)(p, c0, c1, c0, rs, nc, k, ld, keys, tags, op, kind, inf, sw);
        L(topk_cols_untag)(c0, nc, k, ld, idx, (LANE_INT *)tags);
    }
}

/* Whether the column kernel takes bn columns of byte stride cs. */
VINLINE int L(topk_cols_vectorised)(int kind, int64_t bn, int64_t cs)
{
    return !L(scalar)(kind) && cs == W && bn >= V_BYTES / W;
}

/* bn >= one vector of contiguous columns: the whole vectors, then the last
   vector's worth again, alone, for the columns left over. */
VINLINE void L(topk_cols)(const char *p, int64_t rows, int64_t rs, int64_t bn, int64_t k,
                          int64_t ld, int64_t *idx, void *work, int op, int kind, int64_t inf,
                          int sw)
{
    const int64_t lanes = V_BYTES / W, nc = bn / lanes * lanes;
    L(topk_cols_block)(p, rows, rs, nc, k, ld, idx, work, op, kind, inf, sw);
    if (nc == bn)
        return;
    int64_t tail[ARGEXT_TOPK_COLS_K * (V_BYTES / W)];
    L(topk_cols_block)(p + (bn - lanes) * W, rows, rs, lanes, k, lanes, tail, work, op, kind, inf,
                       sw);
    for (int64_t t = 0; t < k; t++)
        for (int64_t j = nc; j < bn; j++)
            idx[t * ld + j] = tail[t * lanes + j - (bn - lanes)];
}
