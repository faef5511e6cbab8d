/*
 * cols_narrow.h - the column fold of one lane width (for_each_lane.h) for
 * fewer columns than a vector whose rows lie back to back: a contiguous
 * [rows, bn] block, such as axis 0 of a (n, 3) array. A vector then holds
 * several rows. Taken in units of U = bn / gcd(bn, lanes) vectors (a whole
 * number of rows), lane l of a unit's vector u is always the same column,
 * (u * lanes + l) % bn. The block goes in chunks of NARROW_CHUNK_BYTES:
 * a chunk's lane key maxima are tested against the columns' best so far,
 * and only a chunk that raises a column (or ties it, for the last
 * occurrence) is searched again, from L1, for the first (last) row holding
 * each raised column's new maximum. Random data raise few chunks, so the
 * input is read about once. float32/float64 chunks without NaN compare as
 * floats (fewer instructions than keys), in both passes.
 */

/* Most vectors per unit: a key maximum in a register each. */
#define NARROW_UNIT_VECS 8
/* Bytes of a chunk: a search finds it in L1. */
#define NARROW_CHUNK_BYTES 16384
/* Vectors a search tests before it branches (whole units). */
#define NARROW_GROUP_VECS 8

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

#ifdef FLANE
/* narrow_max by float compares (float32, float64), which take fewer
   instructions than keys (row_floats.h): the float extremes keyed once at
   the end. Returns 0 when the units hold a NaN (narrow_max then keys them);
   the NaN-skipping operators read a NaN as the infinity that never wins. */
VINLINE int F(narrow_ext)(const char *p, int64_t units, int U, vec *acc, int op, int kind,
                          int64_t inf)
{
    enum { R_MAX = 4 };
    const int R = U >= R_MAX ? 1 : R_MAX / U, is_min = ARGEXT_OP_IS_MIN(op);
    const int nan_test = !ARGEXT_OP_SKIPS_NAN(op) && !ISA_FMAX_KEEPS_NAN;
    vec a[R_MAX * 2];
    fmask nan = F(v_fgt)(L(v_set1)(0), L(v_set1)(0)); /* none */
    ARGEXT_UNROLL
    for (int u = 0; u < U; u++) {
        a[u] = F(v_load_floats)(p + u * V_BYTES, op, inf, 0);
        if (nan_test)
            nan = v_for(nan, F(v_funord)(a[u], a[u]));
        for (int r = 1; r < R; r++)
            a[r * U + u] = a[u];
    }
    int64_t t = 1;
    for (; t + R <= units; t += R) {
        const char *q = p + t * U * V_BYTES;
        vec x[R_MAX * 2];
        ARGEXT_UNROLL
        for (int j = 0; j < R * U; j++)
            x[j] = F(v_load_floats)(q + j * V_BYTES, op, inf, 0);
        ARGEXT_UNROLL
        for (int j = 0; j < R * U; j += 2) {
            if (nan_test)
                nan = v_for(nan, F(v_funord)(x[j], x[j + 1 < R * U ? j + 1 : j]));
            a[j] = F(v_fext)(is_min, a[j], x[j]);
            if (j + 1 < R * U)
                a[j + 1] = F(v_fext)(is_min, a[j + 1], x[j + 1]);
        }
    }
    for (; t < units; t++) {
        ARGEXT_UNROLL
        for (int u = 0; u < U; u++) {
            const vec x = F(v_load_floats)(p + (t * U + u) * V_BYTES, op, inf, 0);
            if (nan_test)
                nan = v_for(nan, F(v_funord)(x, x));
            a[u] = F(v_fext)(is_min, a[u], x);
        }
    }
    ARGEXT_UNROLL
    for (int u = 0; u < U; u++) {
        for (int r = 1; r < R; r++)
            a[u] = F(v_fext)(is_min, a[u], a[r * U + u]);
        if (ISA_FMAX_KEEPS_NAN && !ARGEXT_OP_SKIPS_NAN(op))
            nan = v_for(nan, F(v_funord)(a[u], a[u]));
    }
    if (v_fany(nan))
        return 0;
    for (int u = 0; u < U; u++)
        acc[u] = L(v_keys)(a[u], op, kind, inf);
    return 1;
}
#endif

/* The key maximum of each of a unit's U vectors over `units` units at p:
   units in R interleaved chains, so that few vectors a unit (U < 4) still
   keep four maxima in flight. Returns 1 where float compares found them
   (the units hold no NaN), 0 where keys did. */
VINLINE int L(narrow_max)(const char *p, int64_t units, int U, vec *acc, int op, int kind,
                          int64_t inf)
{
    enum { R_MAX = 4 };
    const int R = U >= R_MAX ? 1 : R_MAX / U;
#ifdef FLANE
    if (kind == ARGEXT_KIND_FLOAT && F(narrow_ext)(p, units, U, acc, op, kind, inf))
        return 1;
#endif
    vec a[R_MAX * 2];
    ARGEXT_UNROLL
    for (int u = 0; u < U; u++)
        for (int r = 0; r < R; r++)
            a[r * U + u] = L(keys_at)(p + u * V_BYTES, op, kind, inf, 0);
    int64_t t = 1;
    for (; t + R <= units; t += R) {
        const char *q = p + t * U * V_BYTES;
        ARGEXT_UNROLL
        for (int j = 0; j < R * U; j++)
            a[j] = L(v_max)(a[j], L(keys_at)(q + j * V_BYTES, op, kind, inf, 0));
    }
    for (; t < units; t++) {
        ARGEXT_UNROLL
        for (int u = 0; u < U; u++)
            a[u] = L(v_max)(a[u], L(keys_at)(p + (t * U + u) * V_BYTES, op, kind, inf, 0));
    }
    ARGEXT_UNROLL
    for (int u = 0; u < U; u++) {
        for (int r = 1; r < R; r++)
            a[u] = L(v_max)(a[u], a[r * U + u]);
        acc[u] = a[u];
    }
    return 0;
}

#define NARROW_MAX_CASE(U)                                           \
    case U:                                                          \
        floats = L(narrow_max)(q, cu, U, acc, op, kind, inf);        \
        break;

/* The bits of the lanes of vector j of a chunk, a unit's vector u, that
   hold their column's target and are left to find: compared as floats
   where the chunk holds no NaN (float32, float64), else as keys. */
VINLINE uint64_t L(narrow_hits)(const char *q, int64_t j, int u, int floats, const vec *target,
                                const uint64_t *want, int op, int kind, int64_t inf)
{
#ifdef FLANE
    if (floats)
        return v_fbits(F(v_feq)(F(v_load_floats)(q + j * V_BYTES, op, inf, 0), target[u])) & want[u];
#endif
    (void)floats;
    return L(v_eq)(L(keys_at)(q + j * V_BYTES, op, kind, inf, 0), target[u]) & want[u];
}

/* Whether units [t0, t1) of a chunk hold a lane left to find (narrow_hits):
   float compares or-ed as vectors, one test a group. */
VINLINE int L(narrow_group)(const char *q, int64_t t0, int64_t t1, int U, int floats,
                            const vec *target, const uint64_t *want, int op, int kind, int64_t inf)
{
#ifdef FLANE
    if (floats) {
        fmask e[NARROW_UNIT_VECS];
        const char *r = q + t0 * U * V_BYTES;
        ARGEXT_UNROLL
        for (int u = 0; u < U; u++)
            e[u] = F(v_feq)(F(v_load_floats)(r + u * V_BYTES, op, inf, 0), target[u]);
        for (int64_t t = t0 + 1; t < t1; t++) {
            r += U * V_BYTES;
            ARGEXT_UNROLL
            for (int u = 0; u < U; u++)
                e[u] = v_for(e[u], F(v_feq)(F(v_load_floats)(r + u * V_BYTES, op, inf, 0), target[u]));
        }
        uint64_t any = 0;
        ARGEXT_UNROLL
        for (int u = 0; u < U; u++)
            any |= v_fbits(e[u]) & want[u];
        return any != 0;
    }
#endif
    (void)floats;
    uint64_t any = 0;
    for (int64_t t = t0; t < t1; t++) {
        ARGEXT_UNROLL
        for (int u = 0; u < U; u++)
            any |= L(narrow_hits)(q, t * U + u, u, 0, target, want, op, kind, inf);
    }
    return any != 0;
}

#define NARROW_GROUP_CASE(U)                                                                \
    case U:                                                                                 \
        any = L(narrow_group)(q, t0, t1, U, floats, target, want, op, kind, inf);           \
        break;

/* The bits of column c's lanes in a vector whose lane 0 is column f:
   every (column f's) moved up by c - f lanes mod bn, those past the last
   lane dropped. */
VINLINE uint64_t L(narrow_lanes)(int64_t c, int64_t f, int64_t bn, uint64_t every)
{
    const int64_t shift = c >= f ? c - f : c - f + bn;
    const uint64_t lanes = MASK_BITS(W) * (V_BYTES / W) == 64
                               ? ~UINT64_C(0)
                               : (UINT64_C(1) << (MASK_BITS(W) * (V_BYTES / W))) - 1;
    return (every << (shift * MASK_BITS(W))) & lanes;
}

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
    const int U = (int)L(narrow_unit)(bn);
    const int64_t units = rows * bn / (U * LANES);
    const int64_t chunk = NARROW_CHUNK_BYTES / (U * V_BYTES) > 0 ? NARROW_CHUNK_BYTES / (U * V_BYTES) : 1;
    const int64_t group = U < NARROW_GROUP_VECS ? NARROW_GROUP_VECS / U : 1;
    const int64_t flip = kind == ARGEXT_KIND_UNSIGNED ? SMIN(W) : 0;
    const uint64_t lane_bits = (UINT64_C(1) << MASK_BITS(W)) - 1;
    /* each unit lane's column; the lanes of the column a vector starts
       with (every bn-th), shifted to give any column's (narrow_lanes) */
    uint8_t col_of[NARROW_UNIT_VECS * LANES];
    uint64_t every = 0;
    for (int64_t l = 0; l < LANES; l += bn)
        every |= lane_bits << (l * MASK_BITS(W));
    for (int u = 0, c = 0; u < U; u++)
        for (int l = 0; l < LANES; l++, c = c + 1 == bn ? 0 : c + 1)
            col_of[u * LANES + l] = (uint8_t)c;
    /* the columns' best as signed lanes, and in each vector of a unit */
    int64_t b[LANES];
    LANE_INT lane[NARROW_UNIT_VECS][LANES];
    vec bestv[NARROW_UNIT_VECS], acc[NARROW_UNIT_VECS];
    for (int64_t c = 0; c < bn; c++)
        b[c] = init ? SMIN(W) : (LANE_INT)((int64_t)best[c] ^ flip);
    for (int u = 0; u < U; u++) {
        for (int l = 0; l < LANES; l++)
            lane[u][l] = (LANE_INT)b[col_of[u * LANES + l]];
        bestv[u] = v_load((const char *)lane[u]);
    }
    for (int64_t c0 = 0; c0 < units; c0 += chunk) {
        const int64_t cu = units - c0 < chunk ? units - c0 : chunk;
        const char *q = p + c0 * U * V_BYTES;
        int floats = 0;
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
        if (!init) {
            uint64_t raised = 0;
            for (int u = 0; u < U; u++)
                raised |= last ? L(v_ge)(acc[u], bestv[u]) : L(v_gt)(acc[u], bestv[u]);
            if (!raised)
                continue;
        }
        /* the columns this chunk raises (ties: the earlier rows' for the
           first occurrence, these rows' for the last) */
        int64_t m[LANES];
        for (int64_t c = 0; c < bn; c++)
            m[c] = SMIN(W);
        for (int u = 0; u < U; u++) {
            v_store((char *)lane[u], acc[u]);
            for (int l = 0; l < LANES; l++) {
                const int c = col_of[u * LANES + l];
                m[c] = lane[u][l] > m[c] ? lane[u][l] : m[c];
            }
        }
        uint64_t want[NARROW_UNIT_VECS] = {0};
        int64_t pending = 0;
        for (int64_t c = 0; c < bn; c++)
            if (init || m[c] > b[c] || (last && m[c] == b[c])) {
                b[c] = m[c];
                best[c] = (LANE_INT)(m[c] ^ flip);
                pending++;
                for (int u = 0; u < U; u++)
                    want[u] |= L(narrow_lanes)(c, col_of[u * LANES], bn, every);
            }
        init = 0;
        vec target[NARROW_UNIT_VECS];
        for (int u = 0; u < U; u++) {
            for (int l = 0; l < LANES; l++)
                lane[u][l] = (LANE_INT)b[col_of[u * LANES + l]];
            target[u] = bestv[u] = v_load((const char *)lane[u]);
#ifdef FLANE
            if (floats)
                target[u] = F(v_floats_of_keys)(target[u], op);
#endif
        }
        /* each raised column's first (last) row in the chunk, a group of
           units tested at a time */
        for (int64_t s = 0; s < cu && pending; s += group) {
            const int64_t t0 = last ? (cu - s > group ? cu - s - group : 0) : s;
            const int64_t t1 = last ? cu - s : (s + group < cu ? s + group : cu);
            int any = 0;
            switch (U) {
                NARROW_GROUP_CASE(1)
                NARROW_GROUP_CASE(2)
                NARROW_GROUP_CASE(3)
                NARROW_GROUP_CASE(4)
                NARROW_GROUP_CASE(5)
                NARROW_GROUP_CASE(6)
                NARROW_GROUP_CASE(7)
                NARROW_GROUP_CASE(8)
            }
            for (int64_t i = 0; any && i < t1 - t0 && pending; i++) {
                const int64_t t = last ? t1 - 1 - i : t0 + i;
                for (int k = 0; k < U; k++) {
                    const int u = last ? U - 1 - k : k;
                    const int64_t v = (c0 + t) * U + u; /* the block's vector */
                    uint64_t e = L(narrow_hits)(q, t * U + u, u, floats, target, want, op, kind, inf);
                    while (e) { /* each lane left holding its column's maximum, in search order */
                        const int l = (last ? msb64(e) : ctz64(e)) / MASK_BITS(W);
                        const int c = col_of[u * LANES + l];
                        idx[c] = f0 + (v * LANES + l) / bn * weight;
                        pending--;
                        for (int x = 0; x < U; x++)
                            want[x] &= ~L(narrow_lanes)(c, col_of[x * LANES], bn, every);
                        e &= want[u];
                    }
                }
            }
        }
    }
    return units * U * LANES / bn;
}
#undef NARROW_MAX_CASE
#undef NARROW_GROUP_CASE
