/*
 * cols_narrow.h - the column fold of one lane width (for_each_lane.h) for
 * fewer columns than a vector whose rows lie back to back: a contiguous
 * [rows, bn] block, such as axis 0 of a (n, 3) array. A vector then holds
 * several rows. Taken in units of U = bn / gcd(bn, lanes) vectors (a whole
 * number of rows), lane l of a unit's vector u is always the same column,
 * (u * lanes + l) % bn. A first pass keeps each unit lane's key maximum;
 * each column's maximum is the largest of its lanes'; a second pass finds
 * the first (for `last`, the last) row holding it.
 */

/* Most vectors per unit: a key maximum in a register each. */
#define NARROW_UNIT_VECS 8

/* U for bn columns: bn / gcd(bn, lanes). */
VINLINE int64_t L(narrow_unit)(int64_t bn)
{
    int64_t a = V_BYTES / W, b = bn;
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return bn / a;
}

/* Whether the narrow fold takes bn columns (byte stride cs) of rows at
   byte stride rs: back to back, fewer than a vector, at least two units. */
VINLINE int L(cols_narrow_applies)(int kind, int64_t rows, int64_t rs, int64_t bn, int64_t cs)
{
    const int64_t lanes = V_BYTES / W;
    return !L(scalar)(kind) && cs == W && rs == bn * W && bn >= 2 && bn < lanes &&
           L(narrow_unit)(bn) <= NARROW_UNIT_VECS && rows * bn >= 2 * L(narrow_unit)(bn) * lanes;
}

/* The key maximum of each of a unit's U vectors over `units` units at p. */
VINLINE void L(narrow_max)(const char *p, int64_t units, int U, vec *acc, int op, int kind,
                           int64_t inf)
{
    ARGEXT_UNROLL
    for (int u = 0; u < U; u++)
        acc[u] = L(keys_at)(p + u * V_BYTES, op, kind, inf, 0);
    for (int64_t t = 1; t < units; t++) {
        const char *q = p + t * U * V_BYTES;
        ARGEXT_UNROLL
        for (int u = 0; u < U; u++)
            acc[u] = L(v_max)(acc[u], L(keys_at)(q + u * V_BYTES, op, kind, inf, 0));
    }
}

#define NARROW_MAX_CASE(U)                                   \
    case U:                                                  \
        L(narrow_max)(p, units, U, acc, op, kind, inf);      \
        break;

/* The whole units of the block at p (row r has flat index f0 + r *
   weight) folded into best (keys, unsigned ones flipped back) and idx as
   the column fold does; returns the rows folded (the caller folds the
   rest after them). */
VINLINE int64_t L(cols_narrow)(const char *p, int64_t rows, int64_t weight, int64_t bn, int64_t f0,
                               int last, int init, void *bestp, int64_t *idx, int op, int kind,
                               int64_t inf)
{
    enum { LANES = V_BYTES / W };
    LANE_INT *best = (LANE_INT *)bestp;
    const int64_t U = L(narrow_unit)(bn), units = rows * bn / (U * LANES);
    const int64_t flip = kind == ARGEXT_KIND_UNSIGNED ? SMIN(W) : 0;
    vec acc[NARROW_UNIT_VECS];
    switch (U) {
        NARROW_MAX_CASE(1)
        NARROW_MAX_CASE(2)
        NARROW_MAX_CASE(3)
        NARROW_MAX_CASE(4)
        NARROW_MAX_CASE(5)
        NARROW_MAX_CASE(6)
        NARROW_MAX_CASE(7)
        NARROW_MAX_CASE(8)
    default:
        return 0;
    }
    LANE_INT lane[NARROW_UNIT_VECS][LANES];
    int64_t m[LANES];
    for (int64_t c = 0; c < bn; c++)
        m[c] = SMIN(W);
    for (int64_t u = 0; u < U; u++) {
        v_store((char *)lane[u], acc[u]);
        for (int64_t l = 0; l < LANES; l++) {
            const int64_t c = (u * LANES + l) % bn;
            m[c] = lane[u][l] > m[c] ? lane[u][l] : m[c];
        }
    }
    /* The columns whose maximum here replaces their best (ties: the
       earlier rows' for the first occurrence, these rows' for the last). */
    uint64_t pending = 0;
    for (int64_t c = 0; c < bn; c++) {
        int take = init;
        if (!take) {
            const int64_t b = (int64_t)best[c] ^ flip;
            take = m[c] > b || (last && m[c] == b);
        }
        if (take) {
            pending |= UINT64_C(1) << c;
            best[c] = (LANE_INT)(m[c] ^ flip);
        }
    }
    vec target[NARROW_UNIT_VECS];
    for (int64_t u = 0; u < U; u++) {
        for (int64_t l = 0; l < LANES; l++)
            lane[u][l] = (LANE_INT)m[(u * LANES + l) % bn];
        target[u] = v_load((const char *)lane[u]);
    }
    const uint64_t lane_bits = (UINT64_C(1) << MASK_BITS(W)) - 1;
    for (int64_t s = 0; s < units && pending; s++) {
        const int64_t t = last ? units - 1 - s : s;
        for (int64_t j = 0; j < U; j++) {
            const int64_t u = last ? U - 1 - j : j, v = t * U + u;
            uint64_t e = L(v_eq)(L(keys_at)(p + v * V_BYTES, op, kind, inf, 0), target[u]);
            while (e && pending) { /* each lane holding its column's maximum, in search order */
                const int l = (last ? msb64(e) : ctz64(e)) / MASK_BITS(W);
                e &= ~(lane_bits << (l * MASK_BITS(W)));
                const int64_t at = v * LANES + l, c = at % bn;
                if ((pending >> c) & 1) {
                    idx[c] = f0 + at / bn * weight;
                    pending &= ~(UINT64_C(1) << c);
                }
            }
        }
    }
    return units * U * LANES / bn;
}
#undef NARROW_MAX_CASE
