/*
 * rows_dense.h - batched dense short rows of one lane width
 * (for_each_lane.h): rows of n elements back to back, n a power of two
 * from 2 to DENSE_ROW_MAX. Rows no wider than a vector go V_BYTES / (n * W)
 * to a vector: the maximum of each row's lanes (v_hmax_within over its
 * bytes) is compared back, and each row's bits of the result name its
 * index. Wider rows take the maximum of their vectors, then look for it.
 * float32/float64 (floats) compare as floats, and rows holding a NaN by keys.
 * Rows of exactly a vector go a square at a time (as many rows as lanes,
 * transposed in registers), and rows_mid.h's rows of more than a vector and
 * at most two as two such squares.
 */

/* A dense row of nv vectors at q in keys: per vector, the lanes equal to
   the row's key maximum, as v_eq bits. */
VINLINE void L(dense_row_keys)(const char *q, int64_t nv, uint64_t *bits, int op, int kind, int64_t inf)
{
    vec key[DENSE_ROW_VECS] = {L(v_set1)(0)}; /* set in full: no maybe-uninitialized */
    key[0] = L(keys_at)(q, op, kind, inf, 0);
    vec acc = key[0];
    for (int64_t v = 1; v < nv; v++) {
        key[v] = L(keys_at)(q + v * V_BYTES, op, kind, inf, 0);
        acc = L(v_max)(acc, key[v]);
    }
    const vec m = L(v_hmax)(acc);
    for (int64_t v = 0; v < nv; v++)
        bits[v] = L(v_eq)(key[v], m);
}

/* The same for float32/float64 by float compares (fewer instructions than
   keys; -0.0 equals +0.0 in both). Returns 0, with nothing set, when the
   row holds a NaN (dense_row_keys then ranks it), or for lanes without a
   float type. The NaN-skipping operators read a NaN as the infinity that
   never wins, as their keys do. */
VINLINE int L(dense_row_floats)(const char *q, int64_t nv, uint64_t *bits, int op, int64_t inf)
{
#ifdef FLANE
    const int is_min = ARGEXT_OP_IS_MIN(op), skips_nan = ARGEXT_OP_SKIPS_NAN(op);
    vec x[DENSE_ROW_VECS] = {L(v_set1)(0)};
    for (int64_t v = 0; v < nv; v++)
        x[v] = F(v_load_floats)(q + v * V_BYTES, op, inf, 0);
    vec e[2] = {x[0], x[1]}; /* nv >= 2; two chains in flight */
    fmask nan = F(v_funord)(x[0], x[1]);
    for (int64_t v = 2; v < nv; v += 2) {
        e[0] = F(v_fext)(is_min, e[0], x[v]);
        e[1] = F(v_fext)(is_min, e[1], x[v + 1]);
        nan = v_for(nan, F(v_funord)(x[v], x[v + 1]));
    }
    if (!skips_nan && v_fany(nan))
        return 0;
    const vec m = L(v_hext_within)(F(v_fext)(is_min, e[0], e[1]), V_BYTES, 1, is_min);
    for (int64_t v = 0; v < nv; v++)
        bits[v] = v_fbits(F(v_feq)(x[v], m));
    return 1;
#else
    (void)q, (void)nv, (void)bits, (void)op, (void)inf;
    return 0;
#endif
}

/* The row's index from its vectors' bits: the first (last) set. */
VINLINE int64_t L(dense_row_index)(const uint64_t *bits, int64_t nv, int last)
{
    const int64_t lb = MASK_BITS(W), lanes = V_BYTES / W, vec_bits = lanes * lb;
    if (nv * vec_bits <= 64) { /* every vector's bits in one word: no branch to mispredict */
        uint64_t e = 0;
        for (int64_t v = 0; v < nv; v++)
            e |= bits[v] << (v * vec_bits);
        return (last ? msb64(e) : ctz64(e)) / lb;
    }
    if (nv * vec_bits <= 128) { /* or in two */
        uint64_t lo = 0, hi = 0;
        for (int64_t v = 0; v < nv; v++) {
            if (v * vec_bits < 64)
                lo |= bits[v] << (v * vec_bits);
            else
                hi |= bits[v] << (v * vec_bits - 64);
        }
        int64_t bit = last ? (hi ? 64 + msb64(hi) : msb64(lo)) : (lo ? ctz64(lo) : 64 + ctz64(hi));
        return bit / lb;
    }
    int64_t v = last ? nv - 1 : 0;
    while (!bits[v]) /* the row's maximum is in one of them */
        v += last ? -1 : 1;
    return v * lanes + (last ? msb64(bits[v]) : ctz64(bits[v])) / lb;
}

/* One dense row of nv vectors at q: its index. */
VINLINE int64_t L(dense_wide_row)(const char *q, int64_t nv, int last, int op, int kind, int64_t inf,
                                  int floats)
{
    uint64_t bits[DENSE_ROW_VECS] = {0}; /* set in full: no maybe-uninitialized */
    prefetch_dense_rows(q, nv * V_BYTES);
    if (!floats || !L(dense_row_floats)(q, nv, bits, op, inf))
        L(dense_row_keys)(q, nv, bits, op, kind, inf);
    return L(dense_row_index)(bits, nv, last);
}

/* Dense rows of nv >= 2 vectors each (nv even; a constant where it is
   called, so that the loops over the vectors unroll and stay in registers).
   stream: idx is 64-byte aligned, and the indices go out by whole lines
   (dense_stream_line). */
VINLINE void L(rows_dense_wide)(const char *p, int64_t count, int64_t nv, int last, int64_t *idx,
                                int op, int kind, int64_t inf, int floats, int stream)
{
    const int64_t row_bytes = nv * V_BYTES;
    const char *q = p; /* advanced, not recomputed: keeps count in a register */
    int64_t k = 0;
    if (stream) {
        for (; k + 8 <= count; k += 8) {
            int64_t line[8];
            for (int r = 0; r < 8; r++, q += row_bytes)
                line[r] = L(dense_wide_row)(q, nv, last, op, kind, inf, floats);
            dense_stream_line(idx + k, line);
        }
    }
    for (; k < count; k++, q += row_bytes)
        idx[k] = L(dense_wide_row)(q, nv, last, op, kind, inf, floats);
}

/* Rows of `bytes` bytes packed in the vector at q: the lanes equal to their
   row's maximum (floats: extreme), as bits. */
VINLINE uint64_t L(packed_rows)(const char *q, int bytes, int op, int kind, int64_t inf, int floats)
{
#ifdef FLANE
    if (floats) {
        const int is_min = ARGEXT_OP_IS_MIN(op);
        vec x = F(v_load_floats)(q, op, inf, 0);
        if (ARGEXT_OP_SKIPS_NAN(op) || !v_fany(F(v_funord)(x, x)))
            return v_fbits(F(v_feq)(x, L(v_hext_within)(x, bytes, 1, is_min)));
    }
#endif
    (void)floats;
    vec x = L(keys_at)(q, op, kind, inf, 0);
    return L(v_eq)(x, L(v_hmax_within)(x, bytes));
}

/* The rows of n elements packed in the vector at q (V_BYTES / (n * W) of
   them): their indices into out. */
VINLINE void L(packed_vector)(const char *q, int64_t n, int last, int64_t *out, int op, int kind,
                              int64_t inf, int floats)
{
    const int64_t lb = MASK_BITS(W), per_vec = V_BYTES / (n * W);
    const uint64_t row_bits = n * lb >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << (n * lb)) - 1;
    prefetch_dense_rows(q, V_BYTES);
    uint64_t e = L(packed_rows)(q, (int)(n * W), op, kind, inf, floats);
    for (int64_t r = 0; r < per_vec; r++) {
        uint64_t b = (e >> (r * n * lb)) & row_bits;
        out[r] = (last ? msb64(b) : ctz64(b)) / lb;
    }
}

#if W >= 4 && V_BYTES / W >= 4
/* One step of a square's vertical pass: lane b of x is row b's element e,
   taken where it beats the row's best so far (ties keep the best: the
   pass runs backwards for the last occurrence). */
VINLINE void L(square_step)(vec *best, vec *at, vec x, int e, int floats, int is_min)
{
    /* At avx512 floats' best by their extreme, the compare off the steps'
       chain (a blend puts a compare into a mask and a masked move on it).
       Zen 4, avx512: squares of float32 rows of 16 1.19-1.23x, rows of
       20-24 1.21-1.22x, float64 of 12 1.07x. At avx2 squares of float32
       rows of 8 gained 1.13x but the code around them moved: rows of 10-12
       lost 0.92-0.95x. */
    const int by_ext = V_BYTES >= 64;
#ifdef FLANE
    if (floats) {
        const fmask up = is_min ? F(v_fgt)(*best, x) : F(v_fgt)(x, *best);
        *best = by_ext ? F(v_fext)(is_min, x, *best) : F(v_fblend)(up, *best, x);
        *at = F(v_fblend)(up, *at, L(v_set1)(e));
        return;
    }
#else
    (void)by_ext;
#endif
    (void)floats, (void)is_min;
    *at = L(v_sel_gt)(x, *best, *at, L(v_set1)(e));
    *best = L(v_max)(*best, x);
}

/* The square of rows q + b * ps (b < lanes) from element 0 into r, row b
   in r[b]: floats or keys. */
VINLINE void L(square_fill)(vec *r, const char *q, int64_t ps, int op, int kind, int64_t inf,
                            int floats)
{
    enum { LANES = V_BYTES / W };
#ifdef FLANE
    if (floats) {
        ARGEXT_UNROLL
        for (int b = 0; b < LANES; b++)
            r[b] = F(v_load_floats)(q + b * ps, op, inf, 0);
    }
#endif
    if (!floats) {
        ARGEXT_UNROLL
        for (int b = 0; b < LANES; b++)
            r[b] = L(keys_at)(q + b * ps, op, kind, inf, 0);
    }
}

/* The same square transposed (r[e]: every row's element e). */
VINLINE void L(square_load)(vec *r, const char *q, int64_t ps, int op, int kind, int64_t inf,
                            int floats, const vec *high)
{
    L(square_fill)(r, q, ps, op, kind, inf, floats);
    L(transpose_regs)(r, high);
}

/* A square of rows of exactly a vector each (as many rows as lanes) at q:
   transposed in registers (transpose.h), vector e holding every row's
   element e, so that one vertical pass finds each row's best and its index
   in the row's lane, instead of a reduction across each vector's lanes and
   a compare back. float32/float64 (floats) compare as floats, a square
   holding a NaN by keys. The indices into out. */
VINLINE void L(square_rows)(const char *q, int64_t *out, int last, int op, int kind, int64_t inf,
                            int floats, const vec *high)
{
    enum { LANES = V_BYTES / W };
    const int is_min = ARGEXT_OP_IS_MIN(op);
    vec r[LANES];
    prefetch_dense_rows(q, LANES * V_BYTES);
    L(square_fill)(r, q, V_BYTES, op, kind, inf, floats);
#ifdef FLANE
    if (floats) {
        fmask nan = F(v_funord)(r[0], r[1]);
        ARGEXT_UNROLL
        for (int b = 2; b < LANES; b += 2)
            nan = v_for(nan, F(v_funord)(r[b], r[b + 1]));
        floats = ARGEXT_OP_SKIPS_NAN(op) || !v_fany(nan);
        if (!floats)
            L(square_fill)(r, q, V_BYTES, op, kind, inf, 0);
    }
#endif
    L(transpose_regs)(r, high);
    vec best, at;
    if (last) {
        best = r[LANES - 1], at = L(v_set1)(LANES - 1);
        ARGEXT_UNROLL
        for (int e = LANES - 2; e >= 0; e--)
            L(square_step)(&best, &at, r[e], e, floats, is_min);
    } else {
        best = r[0], at = L(v_set1)(0);
        ARGEXT_UNROLL
        for (int e = 1; e < LANES; e++)
            L(square_step)(&best, &at, r[e], e, floats, is_min);
    }
    LANE_INT index[LANES];
    v_store((char *)index, at);
    for (int b = 0; b < LANES; b++)
        out[b] = index[b];
}

/* As many rows of n elements as lanes (lanes < n <= 2 * lanes; row b at
   q + b * ps) as two squares, their first lanes elements and their last:
   one vertical pass over both, the elements the squares share met twice
   (the best then ties with itself and stays). Rows of ten float32 at avx2
   took a reduction across lanes each, a compare back and the index from
   the bits. floats: as square_rows, both squares by keys where either
   holds a NaN (tested first: measured faster than a test per square). The
   indices into out. */
VINLINE void L(square_pair_rows)(const char *q, int64_t ps, int64_t n, int64_t *out, int last,
                                 int op, int kind, int64_t inf, int floats, const vec *high)
{
    enum { LANES = V_BYTES / W };
    const int is_min = ARGEXT_OP_IS_MIN(op);
    const int64_t tail = n - LANES; /* the last square's first element */
    for (int b = 0; b < LANES; b++)
        prefetch_dense(q + b * ps, n * W); /* as rows_mid's (mid_prefetch) */
#ifdef FLANE
    if (floats && !ARGEXT_OP_SKIPS_NAN(op)) {
        fmask nan = F(v_funord)(v_load(q), v_load(q + tail * W));
        ARGEXT_UNROLL
        for (int b = 1; b < LANES; b++)
            nan = v_for(nan, F(v_funord)(v_load(q + b * ps), v_load(q + b * ps + tail * W)));
        floats = !v_fany(nan);
    }
#endif
    vec r[LANES], best, at;
    if (last) { /* backwards: the last square from its end, then the first */
        L(square_load)(r, q + tail * W, ps, op, kind, inf, floats, high);
        best = r[LANES - 1], at = L(v_set1)(n - 1);
        ARGEXT_UNROLL
        for (int e = LANES - 2; e >= 0; e--)
            L(square_step)(&best, &at, r[e], (int)tail + e, floats, is_min);
        L(square_load)(r, q, ps, op, kind, inf, floats, high);
        ARGEXT_UNROLL
        for (int e = LANES - 1; e >= 0; e--)
            L(square_step)(&best, &at, r[e], e, floats, is_min);
    } else {
        L(square_load)(r, q, ps, op, kind, inf, floats, high);
        best = r[0], at = L(v_set1)(0);
        ARGEXT_UNROLL
        for (int e = 1; e < LANES; e++)
            L(square_step)(&best, &at, r[e], e, floats, is_min);
        L(square_load)(r, q + tail * W, ps, op, kind, inf, floats, high);
        ARGEXT_UNROLL
        for (int e = 0; e < LANES; e++)
            L(square_step)(&best, &at, r[e], (int)tail + e, floats, is_min);
    }
    LANE_INT index[LANES];
    v_store((char *)index, at);
    for (int b = 0; b < LANES; b++)
        out[b] = index[b];
}

/* Rows of n elements, lanes < n <= 2 * lanes, at p + k * ps (rows_mid.h),
   as many as lanes at a time (square_pair_rows); returns how many it did. */
VINLINE int64_t L(rows_square_pairs)(const char *p, int64_t count, int64_t ps, int64_t n, int last,
                                     int64_t *idx, int op, int kind, int64_t inf, int floats)
{
    enum { LANES = V_BYTES / W };
    vec high[TRANSPOSE_STAGES(V_BYTES / W)];
    L(transpose_high)(high);
    int64_t k = 0;
    for (; k + LANES <= count; k += LANES)
        L(square_pair_rows)(p + k * ps, ps, n, idx + k, last, op, kind, inf, floats, high);
    return k;
}

/* Rows of exactly a vector (lanes >= 4, wider than a byte: a square of
   bytes is more vectors than registers), a square at a time; returns how
   many rows it did. stream: as rows_packed takes it. */
VINLINE int64_t L(rows_square)(const char *p, int64_t count, int last, int64_t *idx, int op,
                               int kind, int64_t inf, int floats, int stream)
{
    enum { LANES = V_BYTES / W, STAGE = LANES > 8 ? LANES : 8 };
    vec high[TRANSPOSE_STAGES(V_BYTES / W)];
    L(transpose_high)(high);
    int64_t k = 0;
    for (; k + STAGE <= count; k += STAGE) {
        int64_t line[STAGE];
        int64_t *out = stream ? line : idx + k;
        for (int64_t b = 0; b < STAGE; b += LANES)
            L(square_rows)(p + (k + b) * V_BYTES, out + b, last, op, kind, inf, floats, high);
        for (int64_t b = 0; stream && b < STAGE; b += 8)
            dense_stream_line(idx + k + b, line + b);
    }
    return k;
}
#endif

/* Rows of n elements no wider than a vector, V_BYTES / (n * W) to a
   vector; returns how many rows it did (whole vectors' worth). n is a
   constant where it is called, so that the rows of a vector unroll and the
   butterfly steps are chosen at compile time. Where ISA_LANE_INDEX is 1,
   vectors of two rows or more go by groups of at least 8 rows, their
   indices found by vectors (one row a vector: its index from the bits is
   faster). stream: idx is 64-byte aligned, and the indices go out by
   whole lines of non-temporal stores. */
VINLINE int64_t L(rows_packed)(const char *p, int64_t count, int64_t n, int last, int64_t *idx,
                               int op, int kind, int64_t inf, int floats, int stream)
{
    const int64_t per_vec = V_BYTES / (n * W), vecs = count / per_vec;
    const int64_t group = per_vec < 8 ? 8 / per_vec : 1; /* vectors of at least 8 rows */
    int64_t v = 0;
#if W >= 4 && V_BYTES / W >= 4
    if (per_vec == 1 && (floats || W == 8) && dense_squares())
        v = L(rows_square)(p, count, last, idx, op, kind, inf, floats, stream);
#endif
#if ISA_LANE_INDEX
    for (; per_vec >= 2 && v + group <= vecs; v += group) {
        uint64_t e[8] = {0};
        for (int64_t g = 0; g < group; g++) {
            const char *q = p + (v + g) * V_BYTES;
            prefetch_dense_rows(q, V_BYTES);
            e[g] = L(packed_rows)(q, (int)(n * W), op, kind, inf, floats);
        }
        for (int64_t r = 0; r < group * per_vec; r += 8) {
            char *o = (char *)(idx + v * per_vec + r);
            vec ix = v_row_index8(e, r, per_vec, n * MASK_BITS(W), last);
            if (stream)
                v_stream(o, ix);
            else
                v_store(o, ix);
        }
    }
#endif
    for (; stream && v + group <= vecs; v += group) { /* staged a line at a time */
        int64_t line[DENSE_STAGE_ROWS];
        for (int64_t g = 0; g < group; g++)
            L(packed_vector)(p + (v + g) * V_BYTES, n, last, line + g * per_vec, op, kind, inf,
                             floats);
        for (int64_t r = 0; r < group * per_vec; r += 8)
            dense_stream_line(idx + v * per_vec + r, line + r);
    }
    for (; v < vecs; v++)
        L(packed_vector)(p + v * V_BYTES, n, last, idx + v * per_vec, op, kind, inf, floats);
    return vecs * per_vec;
}

/* The dense rows; returns how many it did, the caller doing the rest.
   stream: as rows_packed and rows_dense_wide take it. */
VINLINE int64_t L(rows_dense)(const char *p, int64_t count, int64_t n, int last, int64_t *idx,
                              int op, int kind, int64_t inf, int floats, int stream)
{
    const int64_t row_bytes = n * W;
    switch (row_bytes <= V_BYTES ? n : 0) { /* n a constant in each */
    case 2: return L(rows_packed)(p, count, 2, last, idx, op, kind, inf, floats, stream);
    case 4: return L(rows_packed)(p, count, 4, last, idx, op, kind, inf, floats, stream);
    case 8: return L(rows_packed)(p, count, 8, last, idx, op, kind, inf, floats, stream);
    case 16: return L(rows_packed)(p, count, 16, last, idx, op, kind, inf, floats, stream);
    case 32: return L(rows_packed)(p, count, 32, last, idx, op, kind, inf, floats, stream);
    case 64: return L(rows_packed)(p, count, 64, last, idx, op, kind, inf, floats, stream);
    default: break; /* rows wider than a vector */
    }
    switch (row_bytes / V_BYTES) { /* rows of 16 float32/float64 and the like unroll */
    case 2: L(rows_dense_wide)(p, count, 2, last, idx, op, kind, inf, floats, stream); break;
    case 4: L(rows_dense_wide)(p, count, 4, last, idx, op, kind, inf, floats, stream); break;
    case 8: L(rows_dense_wide)(p, count, 8, last, idx, op, kind, inf, floats, stream); break;
#if DENSE_ROW_VECS >= 16 /* 512-bit vectors: rows end at 8 (gcc -O1 warned of a 16th) */
    case 16: L(rows_dense_wide)(p, count, 16, last, idx, op, kind, inf, floats, stream); break;
#endif
    default:
        L(rows_dense_wide)(p, count, row_bytes / V_BYTES, last, idx, op, kind, inf, floats, stream);
        break;
    }
    return count;
}
