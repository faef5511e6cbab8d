/*
 * row_scan.h - the row scan of one lane width (for_each_lane.h): the best
 * of one contiguous row of n >= V_BYTES / W elements.
 *
 * Whole blocks go by chunks of up to CHUNK_BLOCKS, without a data-dependent
 * branch: each lane keeps its maximum and the block where it first (or, for
 * `last`, last) reached it. At the end of a chunk, the lanes holding the
 * chunk's maximum name the first (last) block that has it, and only that
 * block is searched. The remaining whole vectors, then one vector that may
 * overlap them, go through row_block (re-reading elements already seen
 * cannot change the result: the strict test rejects them, and for the
 * non-strict one the backward search meets the current best index before
 * any earlier equal element).
 */

/* A chunk of nb blocks at q0 in keys: per lane, the key maximum (*maxv) and
   the first (last) block reaching it (*bidx). */
VINLINE void L(chunk_keys)(const char *q0, int64_t nb, int last, vec *maxv, vec *bidx, int op,
                           int kind, int64_t inf, int sw, int ahead)
{
    const int64_t block = (V_BYTES / W) * BLOCK_VECS;
    vec m = L(block_max)(q0, op, kind, inf, sw, ahead), bi = L(v_set1)(0);
    for (int64_t b = 1; b < nb; b++) {
        vec acc = L(block_max)(q0 + b * block * W, op, kind, inf, sw, ahead), cur = L(v_set1)(b);
        bi = last ? L(v_sel_gt)(m, acc, cur, bi) : L(v_sel_gt)(acc, m, bi, cur);
        m = L(v_max)(m, acc);
    }
    *maxv = m;
    *bidx = bi;
}

/* Of the lanes of maxv holding their maximum m, the first (smallest) block
   index in bidx, or for `last` the largest. */
VINLINE int64_t L(chunk_block)(vec maxv, vec bidx, int64_t m, int last)
{
    const vec mv = L(v_set1)(m), none = L(v_set1)(-1);
    /* Lanes below m drop out: first takes the smallest block index (as the
       largest complement), last the largest. */
    if (last)
        return L(v_lane0)(L(v_hmax)(L(v_sel_gt)(mv, maxv, bidx, none)));
    return ~L(v_lane0)(L(v_hmax)(L(v_sel_gt)(mv, maxv, v_xor(bidx, none), L(v_set1)(SMIN(W)))));
}

/* A chunk's lane maxima and their blocks (chunk_keys): by float compares
   where they apply (native) and the chunk holds no NaN (row_floats.h). */
VINLINE void L(chunk_scan)(const char *q0, int64_t nb, int last, vec *maxv, vec *bidx, int op,
                           int kind, int64_t inf, int native, int sw, int ahead)
{
#ifdef FLANE
    if (native && F(chunk_floats)(q0, nb, last, maxv, bidx, op, kind, inf, sw, ahead))
        return;
#endif
    (void)native;
    L(chunk_keys)(q0, nb, last, maxv, bidx, op, kind, inf, sw, ahead);
}

/* Chunks of whole blocks from *i on; returns 1 once nothing can beat the
   best. */
VINLINE int L(row_chunks)(row_state *st, const char *p, int64_t n, int64_t *i, int last, int op,
                          int kind, int64_t inf, int native, int sw)
{
    const int64_t block = (V_BYTES / W) * BLOCK_VECS;
    while (*i + block <= n) {
        const char *q0 = p + *i * W;
        int64_t nb = (n - *i) / block < CHUNK_BLOCKS ? (n - *i) / block : CHUNK_BLOCKS;
        vec maxv, bidx;
        /* lanes of 4 and 8 bytes in vectors of 32 bytes or more: two
           copies, the order a constant in each (gcc 12 put the first
           occurrence's compare behind two taken jumps a block at avx2; it
           kept it inline at sse4.2, where copies ran 0.97-0.99x, and
           16-bit rows' copies 0.85-0.90x) */
        if (W >= 4 && V_BYTES >= 32 && last)
            L(chunk_scan)(q0, nb, 1, &maxv, &bidx, op, kind, inf, native, sw, st->ahead);
        else if (W >= 4 && V_BYTES >= 32)
            L(chunk_scan)(q0, nb, 0, &maxv, &bidx, op, kind, inf, native, sw, st->ahead);
        else
            L(chunk_scan)(q0, nb, last, &maxv, &bidx, op, kind, inf, native, sw, st->ahead);
        int64_t m = L(v_lane0)(L(v_hmax)(maxv));
        if (st->force || m > st->best || (last && m == st->best)) {
            int64_t found = L(chunk_block)(maxv, bidx, m, last);
            st->force = 1; /* the block holds m: find it there */
            if (L(row_block)(st, q0 + found * block * W, *i + found * block, BLOCK_VECS,
                             L(v_set1)(m), last, op, kind, inf, sw))
                return 1;
        }
        *i += nb * block;
    }
    return 0;
}

/* Elements of a row at p before its first vector boundary: 0 where it
   starts on one, or off its element size. The scans take them apart, so
   that their loads do not cross cache lines: a load across two costs two,
   and NumPy's large arrays start 16 bytes past a line (TopK's logits
   (32, 128256) float32 k = 5 from L3, Zen 4: argmax's time over TopK's
   0.61-0.63 there, 0.73-0.91 on a line, before TopK did). */
VINLINE int64_t L(row_head_elements)(const char *p)
{
    const int64_t off = (int64_t)((uintptr_t)p % V_BYTES);
    return off % W != 0 ? 0 : ((V_BYTES - off) % V_BYTES) / W;
}

/* A long row not on a vector boundary takes its first vector alone, then
   goes on from the first boundary (re-reading a few elements, as the last
   vector does). Returns 1 once nothing can beat the best. */
VINLINE int L(row_head)(row_state *st, const char *p, int64_t n, int64_t *i, int last, int op,
                        int kind, int64_t inf, int sw)
{
    const int64_t head = L(row_head_elements)(p);
    if (!head || n < 2 * (V_BYTES / W) * BLOCK_VECS)
        return 0;
    *i = head;
    return L(row_block)(st, p, 0, 1, L(keys_at)(p, op, kind, inf, sw), last, op, kind, inf, sw);
}

/* The whole vectors left from i, then one last vector that may overlap
   them. Their bytes are asked for ahead as the blocks' are: rows in DRAM
   otherwise leave a hole in the prefetch stream at each row's end (rows
   not on a vector boundary, as NumPy's large arrays start 16 bytes past
   a line: Zen 4, avx512, float32 rows of 1000-4096 from DRAM, 1.13-1.20x). */
VINLINE void L(row_tail)(row_state *st, const char *p, int64_t n, int64_t i, int last, int op,
                         int kind, int64_t inf, int sw)
{
    const int64_t lanes = V_BYTES / W;
    if (st->ahead)
        prefetch_ahead(p + i * W, (n - i) * W);
    if (i + lanes <= n) {
        const char *q = p + i * W;
        int64_t nv = (n - i) / lanes;
        vec acc = L(keys_at)(q, op, kind, inf, sw);
        for (int64_t k = 1; k < nv; k++)
            acc = L(v_max)(acc, L(keys_at)(q + k * V_BYTES, op, kind, inf, sw));
        if (L(row_block)(st, q, i, nv, acc, last, op, kind, inf, sw))
            return;
        i += nv * lanes;
    }
    if (i < n) {
        const char *q = p + (n - lanes) * W;
        L(row_block)(st, q, n - lanes, 1, L(keys_at)(q, op, kind, inf, sw), last, op, kind, inf, sw);
    }
}

/* Float16 and bfloat16 rows' whole blocks from *i on, each tested against
   the best on its bits (bits_form), where keys and lane maxima took seven
   instructions a vector: only the few blocks that may beat it are ranked
   (Zen 4, logits (32, 128256) in L3: 1.4-1.6x). Returns 1 once nothing can
   beat the best. */
VINLINE int L(row_bits)(row_state *st, const char *p, int64_t n, int64_t *i, int last, int op,
                        int kind, int64_t inf, int sw)
{
    const int64_t block = (V_BYTES / W) * BLOCK_VECS;
    L(bits_form) b;
    int64_t form_best = st->best;
    int formed = !st->force && L(bits_thr)(last ? st->best - 1 : st->best, op, kind, inf, &b);
    for (; *i + block <= n; *i += block) {
        const char *q0 = p + *i * W;
        if (!st->force && form_best != st->best) {
            form_best = st->best;
            formed = L(bits_thr)(last ? st->best - 1 : st->best, op, kind, inf, &b);
        }
        if (formed && !st->force && !L(bits_block)(q0, &b, sw, st->ahead))
            continue;
        if (L(row_block)(st, q0, *i, BLOCK_VECS, L(block_max)(q0, op, kind, inf, sw, st->ahead), last, op,
                         kind, inf, sw))
            return 1;
    }
    return 0;
}

/* The row scan: the index of the row's best (-1 if nothing beats the
   incoming *bestp, init 0), and its key in *bestp; ahead: its blocks ask
   memory ahead. */
VINLINE int64_t L(row_scan)(const char *p, int64_t n, int last, int init, int64_t *bestp, int op,
                            int kind, int64_t inf, int native, int sw, int ahead)
{
    const int64_t start = init ? SMIN(W) : *bestp;
    row_state st = {start, -1, L(v_set1)(start), init, ahead};
    int64_t i = 0;
    int done = L(row_head)(&st, p, n, &i, last, op, kind, inf, sw);
#if ISA_FILTER_SCAN && W >= 4
    if (!done && kind != ARGEXT_KIND_FLOAT) /* the integer lanes' maximum is emulated */
        done = L(row_filtered)(&st, p, n, &i, last, op, kind, inf, sw);
#endif
    if (!done && W == 2 && kind == ARGEXT_KIND_FLOAT && !ARGEXT_OP_SKIPS_NAN(op))
        done = L(row_bits)(&st, p, n, &i, last, op, kind, inf, sw);
    if (!done)
        done = L(row_chunks)(&st, p, n, &i, last, op, kind, inf, native, sw);
    if (!done)
        L(row_tail)(&st, p, n, i, last, op, kind, inf, sw);
    *bestp = st.best;
    return st.bi;
}
