/*
 * row_block.h - how a row scan folds a block into its running best
 * (row_state, template.h), of one lane width (for_each_lane.h).
 */

/* The element of the nv vectors at q equal to key m: the first, or the
   last; -1 if none. One loop per direction: a vector's address then does
   not depend on `last`, which the compiler would otherwise hoist as one
   offset per vector for the whole kernel (stack reloads). */
VINLINE int64_t L(find_key)(const char *q, int64_t nv, vec mv, int last, int op, int kind,
                            int64_t inf, int sw)
{
    const int64_t lanes = V_BYTES / W;
    if (last) {
        for (int64_t k = nv - 1; k >= 0; k--) {
            uint64_t e = L(v_eq)(L(keys_at)(q + k * V_BYTES, op, kind, inf, sw), mv);
            if (e)
                return k * lanes + msb64(e) / MASK_BITS(W);
        }
        return -1;
    }
    for (int64_t k = 0; k < nv; k++) {
        uint64_t e = L(v_eq)(L(keys_at)(q + k * V_BYTES, op, kind, inf, sw), mv);
        if (e)
            return k * lanes + ctz64(e) / MASK_BITS(W);
    }
    return -1;
}

/*
 * Folds a block (nv vectors at q, elements from `start`) whose key maximum
 * is acc into st; returns 1 once nothing can beat the best (first
 * occurrence of the key maximum: NaN, or the integer extreme).
 */
VINLINE int L(row_block)(row_state *st, const char *q, int64_t start, int64_t nv, vec acc,
                         int last, int op, int kind, int64_t inf, int sw)
{
    int64_t m;
    if (st->force || L(v_gt)(acc, st->bestv))
        m = L(v_lane0)(L(v_hmax)(acc));
    else if (last && L(v_eq)(acc, st->bestv))
        m = st->best;
    else
        return 0;
    vec mv = L(v_set1)(m);
    st->bi = start + L(find_key)(q, nv, mv, last, op, kind, inf, sw);
    st->best = m;
    st->bestv = mv;
    st->force = 0;
    return !last && m == SMAX(W);
}
