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

/*
 * The register kernel: each vector of columns keeps its K best in registers
 * (K of 1, 2, 4, 8 a constant, so that every slot is a register) over all
 * the rows, then writes the first k of them (k <= K) straight to the
 * outputs: values (the keys turned back into elements) and int64 rows.
 * Rows fit a chunk (topk_cols_chunk), so a row tag never wraps.
 */

/* Slot t's new key and tag for row key x (tag `tag`): where x beats slot t,
   the larger of x and slot t - 1 (x on a tie: slot t - 1 came first). */
#define TOPK_REGS_SEL(x, y, a, b) L(v_sel_gt_lanes)(x, y, a, b) /* x > y ? b : a */

/* Keys need no blends where the lane width has min and max instructions
   (ISA_MINMAX_WIDTHS): slot t's new key is max(s[t], min(x, s[t - 1])).
   Elsewhere those are a compare and a blend each, and the selects below
   share their compares with the tags' (float64 at avx2 in min/max form:
   1.08x the time). At avx2 on Zen 3, min/max took (1, 21, 128, 128)
   int32 k = 5 0.85-0.88x the time of the blends, float32 0.94-0.98x,
   (4, 21, 512, 512) float32 from DRAM 0.83-0.90x. */
#define TOPK_REGS_MINMAX ((ISA_MINMAX_WIDTHS & W) != 0)

/* Where x beats slot key s, the smaller of x and the key above it, up. */
VINLINE vec L(topk_regs_key)(vec x, vec s, vec up)
{
    if (TOPK_REGS_MINMAX)
        return L(v_max)(s, L(v_min)(x, up));
    return TOPK_REGS_SEL(x, s, s, TOPK_REGS_SEL(x, up, x, up));
}

/* The first slot's key: the larger of x and s. */
VINLINE vec L(topk_regs_first)(vec x, vec s)
{
    return TOPK_REGS_MINMAX ? L(v_max)(s, x) : TOPK_REGS_SEL(x, s, s, x);
}

/* Row m < K (the slots from m on empty) into the slots. */
VINLINE void L(topk_regs_fill)(vec *s, vec *g, vec x, vec tag, int K, int64_t m)
{
    ARGEXT_UNROLL
    for (int t = K - 1; t > 0; t--) {
        if (t > m)
            continue;
        vec into_tag = TOPK_REGS_SEL(x, s[t - 1], tag, g[t - 1]);
        if (t == m) { /* the smaller of x and slot t - 1 */
            s[t] = TOPK_REGS_MINMAX ? L(v_min)(x, s[t - 1])
                                    : TOPK_REGS_SEL(x, s[t - 1], x, s[t - 1]);
            g[t] = into_tag;
        } else {
            g[t] = TOPK_REGS_SEL(x, s[t], g[t], into_tag);
            s[t] = L(topk_regs_key)(x, s[t], s[t - 1]);
        }
    }
    if (m == 0) {
        s[0] = x, g[0] = tag;
    } else {
        g[0] = TOPK_REGS_SEL(x, s[0], g[0], tag);
        s[0] = L(topk_regs_first)(x, s[0]);
    }
}

/* A later row into K full slots: branch-free. */
VINLINE void L(topk_regs_insert)(vec *s, vec *g, vec x, vec tag, int K)
{
    ARGEXT_UNROLL
    for (int t = K - 1; t > 0; t--) {
        g[t] = TOPK_REGS_SEL(x, s[t], g[t], TOPK_REGS_SEL(x, s[t - 1], tag, g[t - 1]));
        s[t] = L(topk_regs_key)(x, s[t], s[t - 1]);
    }
    g[0] = TOPK_REGS_SEL(x, s[0], g[0], tag);
    s[0] = L(topk_regs_first)(x, s[0]);
}

/* The first k slots in increasing row order (sorted == 0): an odd-even
   transposition sort of the tags, the keys alongside. */
VINLINE void L(topk_regs_by_row)(vec *s, vec *g, int K)
{
    ARGEXT_UNROLL
    for (int pass = 0; pass < K; pass++) {
        ARGEXT_UNROLL
        for (int t = pass & 1; t + 1 < K; t += 2) {
            vec lo = TOPK_REGS_SEL(g[t], g[t + 1], g[t], g[t + 1]);
            vec hi = TOPK_REGS_SEL(g[t], g[t + 1], g[t + 1], g[t]);
            vec klo = TOPK_REGS_SEL(g[t], g[t + 1], s[t], s[t + 1]);
            vec khi = TOPK_REGS_SEL(g[t], g[t + 1], s[t + 1], s[t]);
            g[t] = lo, g[t + 1] = hi, s[t] = klo, s[t + 1] = khi;
        }
    }
}

/* Keys turned back into the elements they were made of (v_keys), in
   native order; a float key of zero (+0.0 or -0.0) or of NaN (its payload)
   does not say which: topk_regs_out reads those from the input. */
VINLINE vec L(topk_unkey)(vec key, int op, int kind)
{
    if (kind == ARGEXT_KIND_FLOAT) {
        if (ARGEXT_OP_IS_MIN(op))
            key = v_xor(key, L(v_set1)(-1));
        vec s = L(v_sign)(key);
        vec m = L(v_sub)(v_xor(key, s), s);
        return v_xor(m, v_and(s, L(v_set1)(SMIN(W))));
    }
    int64_t flip = (ARGEXT_OP_IS_MIN(op) ? -1 : 0) ^ (kind == ARGEXT_KIND_UNSIGNED ? SMIN(W) : 0);
    return flip ? v_xor(key, L(v_set1)(flip)) : key;
}

/* Slot key s and tag g (rows) of a vector of columns at q (rows at byte
   stride rs) written out: its values at v, its rows at x; by v_stream
   where `stream` and the place is aligned. */
VINLINE void L(topk_regs_out)(const char *q, int64_t rs, vec s, vec g, char *v, char *x, int op,
                              int kind, int stream)
{
    enum { LANES = V_BYTES / W };
    LANE_INT tag[LANES];
    int64_t rows[LANES];
    v_store((char *)tag, g);
    for (int l = 0; l < LANES; l++)
        rows[l] = tag[l];
    if (stream && !((uintptr_t)x % V_BYTES))
        for (int l = 0; l < LANES; l += V_BYTES / 8)
            v_stream(x + l * 8, v_load((const char *)(rows + l)));
    else
        memcpy(x, rows, sizeof rows);
    vec value = L(topk_unkey)(s, op, kind);
    if (kind == ARGEXT_KIND_FLOAT) {
        int64_t zero = ARGEXT_OP_IS_MIN(op) ? -1 : 0;
        uint64_t odd = L(v_eq)(s, L(v_set1)(zero)) | L(v_eq)(s, L(v_set1)(SMAX(W)));
        if (odd) {
            char e[V_BYTES];
            v_store(e, value);
            for (int l = 0; l < LANES; l++)
                if ((odd >> (l * MASK_BITS(W))) & 1)
                    memcpy(e + l * W, q + rows[l] * rs + l * W, W);
            value = v_load(e);
        }
    }
    if (stream && !((uintptr_t)v % V_BYTES))
        v_stream(v, value);
    else
        v_store(v, value);
}

/* Whole vectors of columns a row ahead that the register kernel asks
   memory for (the same rows' next columns). */
#define TOPK_REGS_AHEAD 3

/* One vector of columns at q over all rows (rows <= the chunk) with K
   slots (k <= K): the first k written (rank order, or row order if
   !sorted) to values (rank t at values + t * vstep) and indices (int64,
   istep). */
VINLINE void L(topk_regs_vector)(const char *q, int64_t rows, int64_t rs, int K, int64_t k,
                                 int sorted, char *values, int64_t vstep, char *indices,
                                 int64_t istep, int stream, int op, int kind, int64_t inf)
{
    const int64_t ahead = TOPK_REGS_AHEAD * V_BYTES;
    vec s[ARGEXT_TOPK_REGS_K], g[ARGEXT_TOPK_REGS_K];
    ARGEXT_UNROLL
    for (int t = 0; t < K; t++) /* slots past the rows (K > rows >= k): never written out */
        s[t] = g[t] = L(v_set1)(0);
    int64_t r = 0;
    for (; r < K && r < rows; r++) {
        argext_prefetch((const char *)((uintptr_t)q + (uintptr_t)(r * rs + ahead)));
        L(topk_regs_fill)(s, g, L(keys_at)(q + r * rs, op, kind, inf, 0), L(v_set1)(r), K, r);
    }
    for (; r < rows; r++) {
        argext_prefetch((const char *)((uintptr_t)q + (uintptr_t)(r * rs + ahead)));
        L(topk_regs_insert)(s, g, L(keys_at)(q + r * rs, op, kind, inf, 0), L(v_set1)(r), K);
    }
    if (!sorted) {
        /* The slots past k last in row order: the sort is stable, and
           no row's tag is above SMAX. */
        ARGEXT_UNROLL
        for (int t = 1; t < K; t++)
            if (t >= k)
                g[t] = L(v_set1)(SMAX(W));
        L(topk_regs_by_row)(s, g, K);
    }
    /* Out through memory, a rank at a time: one copy of the output code,
       not K (this runs once per vector of columns, after all the rows). */
    vec keys[ARGEXT_TOPK_REGS_K], tags[ARGEXT_TOPK_REGS_K];
    ARGEXT_UNROLL
    for (int t = 0; t < K; t++)
        keys[t] = s[t], tags[t] = g[t];
    for (int t = 0; t < K && t < k; t++)
        L(topk_regs_out)(q, rs, keys[t], tags[t], values + t * vstep, indices + t * istep, op,
                         kind, stream);
}

/* bn >= lead + one vector of columns with K slots: the first vector as it
   lies, if lead > 0, then whole vectors from column lead (their loads and
   stores aligned), then the last vector's worth again, alone, for the
   columns left over (the columns before them written twice, alike). */
VINLINE void L(topk_regs_span)(const char *p, int64_t rows, int64_t rs, int64_t bn, int64_t lead,
                               int K, int64_t k, int sorted, char *values, int64_t vstep,
                               char *indices, int64_t istep, int stream, int op, int kind,
                               int64_t inf)
{
    const int64_t lanes = V_BYTES / W, end = lead + (bn - lead) / lanes * lanes;
    /* One loop, so that the vector code is inlined once: column 0 first
       if lead > 0, then the aligned vectors from lead to end, then bn -
       lanes if columns are left over. */
    for (int64_t c = 0;;) {
        L(topk_regs_vector)(p + c * W, rows, rs, K, k, sorted, values + c * W, vstep,
                            indices + c * 8, istep, stream, op, kind, inf);
        if (c < lead)
            c = lead;
        else if (c + lanes < end)
            c += lanes;
        else if (c + lanes == end && end < bn)
            c = bn - lanes;
        else
            break;
    }
}

/* The slots that k runs with: the next of 1, 2, 4, 5 and 8. */
#define TOPK_REGS_SLOTS(k) ((k) <= 2 ? (int)(k) : (k) <= 4 ? 4 : (k) <= 5 ? 5 : 8)

#define TOPK_REGS_K_CASE(K)                                                                     \
    case K:                                                                                     \
        L(topk_regs_span)(p, rows, rs, bn, lead, K, k, sorted, values, vstep, indices, istep,   \
                          stream, op, kind, inf);                                               \
        break;

/* TopK's register kernel (abi.h) on bn contiguous columns: 0 where it does
   not apply (fewer columns than a vector, k above ARGEXT_TOPK_REGS_K, more
   rows than a chunk), the caller then taking the column kernel. The whole
   vectors start at column `lead` (argext_topk_regs_lead), where the index
   stores are aligned, and the value stores and loads too where they can be.
   `stream`: the outputs are written by v_stream where aligned (outputs too
   large for the caches). k runs with K slots, K the next of 1, 2, 4, 5,
   8: five instances, not eight. The padded slots cost little where the
   loads bound the kernel (Zen 5), but a core with 512-bit operations at
   half rate (Zen 4) is bound by the network: top-5 has slots of its own
   ((4, 21, 512, 512) float32 k = 5: 0.74x the time of 8 slots). */
VINLINE int L(topk_regs)(const char *p, int64_t rows, int64_t rs, int64_t bn, int64_t k,
                         int sorted, char *values, int64_t vstep, char *indices, int64_t istep,
                         int stream, int op, int kind, int64_t inf)
{
    const int64_t lanes = V_BYTES / W;
    if (L(scalar)(kind) || bn < lanes || rows > L(topk_cols_chunk)() || k > ARGEXT_TOPK_REGS_K)
        return 0;
    int64_t lead = argext_topk_regs_lead(p, values, indices, W, V_BYTES);
    if (bn < lead + lanes)
        lead = 0;
    switch (TOPK_REGS_SLOTS(k)) {
        TOPK_REGS_K_CASE(1)
        TOPK_REGS_K_CASE(2)
        TOPK_REGS_K_CASE(4)
        TOPK_REGS_K_CASE(5)
        TOPK_REGS_K_CASE(8)
    default:
        return 0;
    }
    if (stream)
        v_stream_fence();
    return 1;
}
#undef TOPK_REGS_K_CASE
