/*
 * cols_fold.h - the column fold of one lane width (for_each_lane.h):
 * bn >= V_BYTES / W contiguous columns folded over `rows` rows. Up to
 * TILE_ROWS rows (or TALL_TILE_ROWS: fold_tile_rows) are taken together in
 * registers (cols_tile), and so are narrow blocks' (cols_narrow_vecs) in
 * tiles of more rows. Otherwise, with masked stores the first CHUNKED_ROWS
 * rows (or all: ISA_FOLD_ALL_PAIRS, and far folds on Intel:
 * cols_fold_asks) go two at a time and branch-free (where tiles are tall,
 * avx512's one- and two-byte integer lanes four at a time, its wider
 * lanes in cache eight at a time: GROUP_ROWS, OCT_ROWS): one load
 * and store of the best keys per two input vectors keeps the loop short
 * enough for the core to have many lines in flight (few long rows:
 * segmentation maps), and improving columns note their row in a byte
 * (row_of, the caller's bn bytes), flushed to indices every ROW_CHUNK
 * rows. The other rows go one at a time, the first
 * DENSE_ROWS without a test, then skipping the stores of a vector that
 * improves no column (few do, once rows are many).
 * The last vector of a row may overlap the one before it (idempotent: a
 * column updated twice by the same rows gets the same key and index).
 * best holds the keys of dtypes.h (unsigned ones flipped back, `flip`).
 */

/* The vector of columns from jj (the last one ends at bn) after j. */
VINLINE int64_t L(cols_vector)(int64_t j, int64_t bn)
{
    return j + V_BYTES / W <= bn ? j : bn - V_BYTES / W;
}

/* Row a of the stream of rows the fold reads, the block's rows then the
   next blocks' (bn columns on each). May lie past the input: the address is
   formed as an integer. */
VINLINE uintptr_t L(cols_ahead)(const char *p, int64_t a, int64_t rows, int64_t rs, int64_t bn)
{
    int64_t blocks = 0;
    if (a >= rows) { /* the last rows only: no division in the loop */
        blocks = a / rows;
        a -= blocks * rows;
    }
    return (uintptr_t)p + (uintptr_t)(a * rs + blocks * bn * W);
}

#if ISA_MASKED_STORE
/* Rows q and q + rs (rs 0: one row) at columns jj folded into best; *u0 and
   *u1 get the lanes each improves. With ask, the rows read two pairs on
   (pf0, pf1) are asked for: the hardware prefetcher alone loses the fold's
   many short streams (but far folds on Intel: cols_fold_asks). */
VINLINE void L(cols_pair)(const char *q, int64_t jj, int64_t rs, uintptr_t pf0, uintptr_t pf1,
                          int ask, char *best, vmask *u0, vmask *u1, vec flip, int last, int op,
                          int kind, int64_t inf, int sw)
{
    if (ask) {
        argext_prefetch((const char *)(pf0 + (uintptr_t)(jj * W)));
        argext_prefetch((const char *)(pf1 + (uintptr_t)(jj * W)));
    }
    vec k0 = L(keys_at)(q + jj * W, op, kind, inf, sw);
    vec k1 = L(keys_at)(q + rs + jj * W, op, kind, inf, sw);
    vec b = v_xor(v_load(best + jj * W), flip), m = L(v_max)(k0, k1);
    *u0 = last ? L(v_gem)(k0, b) : L(v_gtm)(k0, b);
    vec b1 = L(v_max)(k0, b);
    *u1 = last ? L(v_gem)(k1, b1) : L(v_gtm)(k1, b1);
    v_store(best + jj * W, v_xor(L(v_max)(m, b), flip));
}

/* Rows a group pass of cols_group takes: four of one- and two-byte lanes,
   OCT_ROWS of wider ones. */
#define GROUP_ROWS (W <= 2 ? 4 : OCT_ROWS)
/* cols_pair over the GROUP_ROWS rows q + t * rs: one load and store of
   the best keys per GROUP_ROWS input vectors; u[t] the lanes row t
   improves, the rows on pf[t] asked for with ask. */
VINLINE void L(cols_group)(const char *q, int64_t jj, int64_t rs, const uintptr_t *pf, int ask,
                           char *best, vmask *u, vec flip, int last, int op, int kind, int64_t inf,
                           int sw)
{
    for (int t = 0; ask && t < GROUP_ROWS; t++)
        argext_prefetch((const char *)(pf[t] + (uintptr_t)(jj * W)));
    vec k[GROUP_ROWS];
    for (int t = 0; t < GROUP_ROWS; t++)
        k[t] = L(keys_at)(q + t * rs + jj * W, op, kind, inf, sw);
    vec b = v_xor(v_load(best + jj * W), flip);
    for (int t = 0; t < GROUP_ROWS; t++) {
        u[t] = last ? L(v_gem)(k[t], b) : L(v_gtm)(k[t], b);
        b = L(v_max)(k[t], b);
    }
    v_store(best + jj * W, v_xor(b, flip));
}

#ifdef FLANE
/* cols_pair on best held as floats (float32/float64): compares and float
   extremes, about half the instructions of keys. A pair that holds a NaN
   goes by keys (NaN wins); a NaN best stays, the float extreme returning
   its NaN second operand (x86) or any NaN operand (NEON). */
VINLINE void F(cols_pair_floats)(const char *q, int64_t jj, int64_t rs, uintptr_t pf0,
                                 uintptr_t pf1, int ask, char *best, vmask *u0, vmask *u1,
                                 int last, int op, int kind, int64_t inf, int sw)
{
    const int is_min = ARGEXT_OP_IS_MIN(op);
    if (ask) {
        argext_prefetch((const char *)(pf0 + (uintptr_t)(jj * W)));
        argext_prefetch((const char *)(pf1 + (uintptr_t)(jj * W)));
    }
    const vec x0 = F(v_load_floats)(q + jj * W, op, inf, sw);
    const vec x1 = F(v_load_floats)(q + rs + jj * W, op, inf, sw);
    const vec b = v_load(best + jj * W);
    if (!ARGEXT_OP_SKIPS_NAN(op) && v_fany(F(v_funord)(x0, x1))) {
        const vec k0 = L(v_keys)(x0, op, kind, inf), k1 = L(v_keys)(x1, op, kind, inf);
        const vec kb = L(v_keys)(b, op, kind, inf), kb1 = L(v_max)(k0, kb);
        *u0 = last ? L(v_gem)(k0, kb) : L(v_gtm)(k0, kb);
        *u1 = last ? L(v_gem)(k1, kb1) : L(v_gtm)(k1, kb1);
        v_store(best + jj * W, F(v_floats_of_keys)(L(v_max)(k1, kb1), op));
        return;
    }
    const vec b1 = F(v_fext)(is_min, x0, b);
    *u0 = F(v_fvmask)(F(v_fbetter)(x0, b, is_min, last));
    *u1 = F(v_fvmask)(F(v_fbetter)(x1, b1, is_min, last));
    v_store(best + jj * W, F(v_fext)(is_min, x1, b1));
}

/* cols_pair_floats over the OCT_ROWS rows q + t * rs: one load and store
   of best per eight input vectors; u[t] the lanes row t improves. Eight
   rows whose vectors hold a NaN go by keys, as a pair does. */
VINLINE void F(cols_oct_floats)(const char *q, int64_t jj, int64_t rs, char *best, vmask *u,
                                int last, int op, int kind, int64_t inf, int sw)
{
    const int is_min = ARGEXT_OP_IS_MIN(op);
    vec x[OCT_ROWS];
    for (int t = 0; t < OCT_ROWS; t++)
        x[t] = F(v_load_floats)(q + t * rs + jj * W, op, inf, sw);
    vec b = v_load(best + jj * W);
    if (!ARGEXT_OP_SKIPS_NAN(op)) {
        fmask un = F(v_funord)(x[0], x[1]);
        for (int t = 2; t < OCT_ROWS; t += 2)
            un = v_for(un, F(v_funord)(x[t], x[t + 1]));
        if (v_fany(un)) {
            vec kb = L(v_keys)(b, op, kind, inf);
            for (int t = 0; t < OCT_ROWS; t++) {
                const vec k = L(v_keys)(x[t], op, kind, inf);
                u[t] = last ? L(v_gem)(k, kb) : L(v_gtm)(k, kb);
                kb = L(v_max)(k, kb);
            }
            v_store(best + jj * W, F(v_floats_of_keys)(kb, op));
            return;
        }
    }
    for (int t = 0; t < OCT_ROWS; t++) {
        u[t] = F(v_fvmask)(F(v_fbetter)(x[t], b, is_min, last));
        b = F(v_fext)(is_min, x[t], b);
    }
    v_store(best + jj * W, b);
}

/* Rows r to r + OCT_ROWS - 1 of a chunk from row c0 (cols_pair_bytes),
   best held as floats. They ask for nothing ahead: asking for the next
   eight rows, as pairs ask for the next pair, took 1.6x the time (Intel
   Xeon, float32 (2, 64, 131072), (4, 200, 65536)). */
VINLINE void F(cols_oct_bytes)(const char *p, int64_t r, int64_t rs, int64_t bn, int64_t c0,
                               char *best, int8_t *row_of, int last, int op, int kind,
                               int64_t inf, int sw)
{
    for (int64_t j = 0; j < bn; j += V_BYTES / W) {
        const int64_t jj = L(cols_vector)(j, bn);
        vmask u[OCT_ROWS];
        F(cols_oct_floats)(p + r * rs, jj, rs, best, u, last, op, kind, inf, sw);
        for (int t = 0; t < OCT_ROWS; t++)
            L(v_store_row)(row_of + jj, u[t], (int)(r + t - c0));
    }
}

/* best's bn (>= a vector) keys as floats (to_floats), or back. The last
   vector, which may overlap the one before it, is converted from the
   values as they were first. */
VINLINE void F(cols_best_as)(char *best, int64_t bn, int to_floats, int op, int kind, int64_t inf)
{
    enum { LANES = V_BYTES / W };
    const vec t = v_load(best + (bn - LANES) * W);
    const vec tail = to_floats ? F(v_floats_of_keys)(t, op) : L(v_keys)(t, op, kind, inf);
    for (int64_t j = 0; j + LANES <= bn; j += LANES) {
        const vec x = v_load(best + j * W);
        v_store(best + j * W, to_floats ? F(v_floats_of_keys)(x, op) : L(v_keys)(x, op, kind, inf));
    }
    v_store(best + (bn - LANES) * W, tail);
}
#endif

/* Rows r and r1 (r + 1, or r alone) of a chunk from row c0: where a column
   improves, row_of = its row less c0 (a byte). Float lanes (floats) with
   best held as floats. */
VINLINE void L(cols_pair_bytes)(const char *p, int64_t r, int64_t r1, int64_t rows, int64_t rs,
                                int64_t bn, int64_t c0, int ask, char *best, int8_t *row_of,
                                vec flip, int floats, int last, int op, int kind, int64_t inf,
                                int sw)
{
    const uintptr_t pf0 = L(cols_ahead)(p, r + 2, rows, rs, bn);
    const uintptr_t pf1 = L(cols_ahead)(p, r + 3, rows, rs, bn);
    for (int64_t j = 0; j < bn; j += V_BYTES / W) {
        int64_t jj = L(cols_vector)(j, bn);
        vmask u0, u1;
#ifdef FLANE
        if (floats)
            F(cols_pair_floats)(p + r * rs, jj, (r1 - r) * rs, pf0, pf1, ask, best, &u0, &u1,
                                last, op, kind, inf, sw);
        else
#else
        (void)floats;
#endif
            L(cols_pair)(p + r * rs, jj, (r1 - r) * rs, pf0, pf1, ask, best, &u0, &u1, flip, last,
                         op, kind, inf, sw);
        L(v_store_row)(row_of + jj, u0, (int)(r - c0));
        L(v_store_row)(row_of + jj, u1, (int)(r1 - c0));
    }
}

/* Rows r to r + GROUP_ROWS - 1 of a chunk from row c0 (cols_pair_bytes),
   keys only. */
VINLINE void L(cols_group_bytes)(const char *p, int64_t r, int64_t rows, int64_t rs, int64_t bn,
                                 int64_t c0, int ask, char *best, int8_t *row_of, vec flip,
                                 int last, int op, int kind, int64_t inf, int sw)
{
    uintptr_t pf[GROUP_ROWS];
    for (int t = 0; t < GROUP_ROWS; t++)
        pf[t] = L(cols_ahead)(p, r + GROUP_ROWS + t, rows, rs, bn);
    for (int64_t j = 0; j < bn; j += V_BYTES / W) {
        const int64_t jj = L(cols_vector)(j, bn);
        vmask u[GROUP_ROWS];
        L(cols_group)(p + r * rs, jj, rs, pf, ask, best, u, flip, last, op, kind, inf, sw);
        for (int t = 0; t < GROUP_ROWS; t++)
            L(v_store_row)(row_of + jj, u[t], (int)(r + t - c0));
    }
}

/* idx[j] = f + row_of[j] * fw for j < bn (8-byte aligned idx), its whole
   lines by non-temporal stores. */
VINLINE void L(cols_stream_rows)(int64_t *idx, const int8_t *row_of, int64_t bn, int64_t f,
                                 int64_t fw)
{
    int64_t j = 0;
    for (; j < bn && (uintptr_t)(idx + j) % 64; j++)
        idx[j] = f + row_of[j] * fw;
    for (; j + 8 <= bn; j += 8) {
        int64_t line[8];
        for (int l = 0; l < 8; l++)
            line[l] = f + row_of[j + l] * fw;
        dense_stream_line(idx + j, line);
    }
    for (; j < bn; j++)
        idx[j] = f + row_of[j] * fw;
}

/* Rows from r up to `chunked` in chunks of ROW_CHUNK, by row bytes (init:
   row 0 is already in best and every column's byte starts at it; with
   stream, a first chunk that is the last too writes every index once, by
   cols_stream_rows; with ask, the rows ahead asked for). Float32/float64
   keep best as floats meanwhile. */
VINLINE void L(cols_chunks)(const char *p, int64_t r, int64_t rows, int64_t chunked, int64_t rs,
                            int64_t fw, int64_t bn, int64_t f0, int init, int stream, int ask,
                            char *best, int64_t *idx, int8_t *row_of, vec flip, int last, int op,
                            int kind, int64_t inf, int sw)
{
    const int floats = W >= 4 && kind == ARGEXT_KIND_FLOAT;
    /* where folds' tiles are tall (Intel), avx512's integer lanes in
       groups: one- and two-byte lanes four rows at a time, asking ahead as
       pairs do. Intel Xeon against pairs: int8 (2, 100, 262144) 1.13x,
       last 1.12x, (8, 64, 1048576) 1.14-1.27x, (200, 262144) over axis 0
       1.14x, (1000, 8192) 0.98x, int16 1.04-1.18x; avx2 and sse4.2
       0.90-1.09x, four- and eight-byte lanes (asking ahead) 0.65-0.69x,
       float16 0.98x. Four- and eight-byte lanes in cache (whose pairs ask
       ahead: cols_fold_asks) eight rows at a time without asks: int32 (4,
       200, 65536) over axis 1 1.17x, (2, 64, 131072) 1.09x, last 1.10x,
       uint32 1.09x, int64 (2, 100, 65536) 1.08x, int32 (300, 65536) over
       axis 0 1.04x; past the cache they keep their pairs. */
    const int groups = V_BYTES == 64 && (W <= 2 || ask) && kind != ARGEXT_KIND_FLOAT &&
                       argext_fold_tiles_mode() == ARGEXT_FOLD_TILES_TALL;
    /* where folds' tiles are tall (Intel), avx512's float32/float64 folds
       in cache (those whose pairs ask ahead: cols_fold_asks) eight rows a
       pass, best held as floats. Intel Xeon against pairs: float32 (4,
       200, 65536) over axis 1 1.14-1.16x, last occurrence 1.16x, argmin
       1.14x, float64 (4, 200, 32768) 1.13x, float32 (300, 65536) over axis
       0 1.06x, (2, 64, 131072) 1.03-1.04x (two threads 1.04x); past the
       cache (1, 100, 2621440) lost 0.87x (eight streams without asks) */
    const int octs = V_BYTES == 64 && floats && ask &&
                     argext_fold_tiles_mode() == ARGEXT_FOLD_TILES_TALL;
    (void)octs; /* lanes without floats */
#ifdef FLANE
    if (floats)
        F(cols_best_as)(best, bn, 1, op, kind, inf);
#endif
    for (int64_t c0 = init ? 0 : r; c0 < rows && c0 < chunked; c0 = r, init = 0) {
        const int64_t c1 = rows - c0 < ROW_CHUNK ? rows : c0 + ROW_CHUNK;
        memset(row_of, init ? 0 : -1, (size_t)bn);
#ifdef FLANE
        for (; octs && last && r + OCT_ROWS - 1 < c1; r += OCT_ROWS)
            F(cols_oct_bytes)(p, r, rs, bn, c0, best, row_of, 1, op, kind, inf, sw);
        for (; octs && !last && r + OCT_ROWS - 1 < c1; r += OCT_ROWS)
            F(cols_oct_bytes)(p, r, rs, bn, c0, best, row_of, 0, op, kind, inf, sw);
#endif
        for (; groups && r + GROUP_ROWS - 1 < c1; r += GROUP_ROWS)
            L(cols_group_bytes)(p, r, rows, rs, bn, c0, ask && W <= 2, best, row_of, flip, last,
                                op, kind, inf, sw);
        for (; r < c1; r += 2) {
            const int64_t r1 = r + 1 < c1 ? r + 1 : r;
            /* float lanes: two copies, the order a constant in each (Zen 3,
               avx2, float32 (1024, 1024) first occurrence 1.36x; integer
               lanes lost 0.82-0.91x so) */
            if (floats && last)
                L(cols_pair_bytes)(p, r, r1, rows, rs, bn, c0, ask, best, row_of, flip, 1, 1,
                                   op, kind, inf, sw);
            else if (floats)
                L(cols_pair_bytes)(p, r, r1, rows, rs, bn, c0, ask, best, row_of, flip, 1, 0,
                                   op, kind, inf, sw);
            else
                L(cols_pair_bytes)(p, r, r1, rows, rs, bn, c0, ask, best, row_of, flip, 0, last,
                                   op, kind, inf, sw);
        }
        r = c1;
        /* Stored whatever the byte: a conditional store vectorises into
           masked stores, microcoded on AMD (Zen 3: the float16 fold 1.3x
           slower). */
        const int64_t f = f0 + c0 * fw;
        if (stream && init && c1 == rows) {
            L(cols_stream_rows)(idx, row_of, bn, f, fw);
            v_stream_fence();
        } else {
            for (int64_t j = 0; j < bn; j++)
                idx[j] = row_of[j] >= 0 ? f + row_of[j] * fw : idx[j];
        }
    }
#ifdef FLANE
    if (floats)
        F(cols_best_as)(best, bn, 0, op, kind, inf);
#endif
}
#endif

/* Row r folded alone: where a column improves, idx = the row's flat index.
   Unless dense, a vector that improves no column skips its stores. The row
   ROWS_AHEAD on is asked for: one stream of rows, which the prefetchers
   serve from DRAM better than pairs' two once rows are many. */
VINLINE void L(cols_row_index)(const char *p, int64_t r, int64_t rs, int64_t fw, int64_t bn,
                               int64_t f0, char *best, int64_t *idx, vec flip, int last,
                               int dense, int op, int kind, int64_t inf, int sw)
{
    const char *q = p + r * rs;
    const uintptr_t pf = (uintptr_t)q + (uintptr_t)(ROWS_AHEAD * rs);
    for (int64_t j = 0; j < bn; j += V_BYTES / W) {
        int64_t jj = L(cols_vector)(j, bn);
        argext_prefetch((const char *)(pf + (uintptr_t)(jj * W)));
        vec k = L(keys_at)(q + jj * W, op, kind, inf, sw);
        vec b = v_xor(v_load(best + jj * W), flip);
        if (!dense && !(last ? L(v_ge)(k, b) : L(v_gt)(k, b)))
            continue;
        vmask up = last ? L(v_gem)(k, b) : L(v_gtm)(k, b);
        v_store(best + jj * W, v_xor(L(v_max)(k, b), flip));
        L(v_store_index)(idx + jj, up, f0 + r * fw);
    }
}

/* The rows' lines TILE_PREFETCH bytes on asked for, from TILE_PREFETCH_ROWS
   to `most` rows (past the rows' end: the address formed as an integer);
   a narrow block's taller tiles read on down their rows. */
VINLINE void L(tile_prefetch)(const char *q, int64_t nt, int64_t rs, int64_t most)
{
    if (nt >= TILE_PREFETCH_ROWS && nt <= most)
        for (int64_t t = 0; t < nt; t++)
            argext_prefetch((const char *)((uintptr_t)q + (uintptr_t)(t * rs + TILE_PREFETCH)));
}

#ifdef FLANE
/* tile_reduce by float compares: half the instructions of keys; kb keyed
   at the end (-0.0 and +0.0 equal in both). Returns 0 where the tile holds
   a NaN (which the float extreme may drop): tile_reduce then ranks it by
   keys. The NaN-skipping operators' loads hold none. */
VINLINE int F(tile_reduce_floats)(const char *q, int64_t nt, int64_t rs, int64_t ahead, int g,
                                  vec *kb, vec *ri, int last, int op, int kind, int64_t inf,
                                  int sw)
{
    const int is_min = ARGEXT_OP_IS_MIN(op), nan_test = !ARGEXT_OP_SKIPS_NAN(op);
    fmask nan = F(v_fgt)(L(v_set1)(0), L(v_set1)(0)); /* none */
    vec x[TILE_VECS];
    ARGEXT_UNROLL
    for (int u = 0; u < g; u++) {
        kb[u] = x[u] = F(v_load_floats)(q + u * V_BYTES, op, inf, sw);
        ri[u] = L(v_set1)(0);
    }
    for (int64_t t = 1;; t++) {
        if (nan_test && !ISA_FMAX_KEEPS_NAN) /* a pair of vectors per test */
            for (int u = 0; u < g; u += 2)
                nan = v_for(nan, F(v_funord)(x[u], x[u + 1 < g ? u + 1 : u]));
        if (t == nt)
            break;
        const vec row = L(v_set1)(t);
        if (ahead)
            argext_prefetch((const char *)((uintptr_t)(q + t * rs) + (uintptr_t)ahead));
        ARGEXT_UNROLL
        for (int u = 0; u < g; u++) {
            x[u] = F(v_load_floats)(q + t * rs + u * V_BYTES, op, inf, sw);
            ri[u] = F(v_fblend)(F(v_fbetter)(x[u], kb[u], is_min, last), ri[u], row);
            kb[u] = F(v_fext)(is_min, kb[u], x[u]);
        }
    }
    if (nan_test && ISA_FMAX_KEEPS_NAN) /* the extreme is NaN where a lane held one */
        for (int u = 0; u < g; u++)
            nan = v_for(nan, F(v_funord)(kb[u], kb[u]));
    if (nan_test && v_fany(nan))
        return 0;
    for (int u = 0; u < g; u++)
        kb[u] = L(v_keys)(kb[u], op, kind, inf);
    return 1;
}
#endif

#ifndef FLANE
/* tile_reduce for 16-bit floats: keys without their NaN select (a NaN's
   key lands past the infinity of its sign), the lanes' largest magnitude
   kept to tell whether the tile held a NaN: returns 0 then, and
   tile_reduce ranks it by whole keys. The row numbers count up in a
   vector (a broadcast from a register is two operations). Taken at avx2:
   Intel Xeon, float16/bfloat16 folds of 4 to 16 rows, 1.07-1.11x; at
   avx512 and sse4.2 0.94-1.05x. */
VINLINE int L(tile_reduce_half)(const char *q, int64_t nt, int64_t rs, int64_t ahead, int g,
                                vec *kb, vec *ri, int last, int op, int64_t inf, int sw)
{
    const vec mag = L(v_set1)(SMAX(W)), flip = L(v_set1)(ARGEXT_OP_IS_MIN(op) ? -1 : 0);
    const vec minus_one = L(v_set1)(-1);
    vec top = L(v_set1)(0), row = L(v_set1)(0);
    ARGEXT_UNROLL
    for (int u = 0; u < g; u++) {
        const vec x = L(v_load_row)(q + u * V_BYTES, sw), m = v_and(x, mag), s = L(v_sign)(x);
        top = L(v_max)(top, m);
        kb[u] = v_xor(L(v_sub)(v_xor(m, s), s), flip);
        ri[u] = row;
    }
    for (int64_t t = 1; t < nt; t++) {
        row = L(v_sub)(row, minus_one);
        if (ahead)
            argext_prefetch((const char *)((uintptr_t)(q + t * rs) + (uintptr_t)ahead));
        ARGEXT_UNROLL
        for (int u = 0; u < g; u++) {
            const vec x = L(v_load_row)(q + t * rs + u * V_BYTES, sw), m = v_and(x, mag);
            const vec s = L(v_sign)(x), k = v_xor(L(v_sub)(v_xor(m, s), s), flip);
            top = L(v_max)(top, m);
            ri[u] = last ? L(v_sel_gt)(kb[u], k, row, ri[u]) : L(v_sel_gt)(k, kb[u], ri[u], row);
            kb[u] = L(v_max)(kb[u], k);
        }
    }
    return !L(v_gt)(top, L(v_set1)(inf));
}
#endif

/* The best keys kb and their rows ri (as lanes) of g vectors of columns
   from q over nt rows, in registers; with `ahead`, each row's line that
   many bytes on asked for (a narrow block's next line of columns, or from
   its last line the next tile's first); tiles of up to `most` rows ask
   for their lines TILE_PREFETCH bytes on (tile_prefetch). */
VINLINE void L(tile_reduce)(const char *q, int64_t nt, int64_t rs, int64_t ahead, int64_t most,
                            int g, vec *kb, vec *ri, int last, int op, int kind, int64_t inf,
                            int sw)
{
    L(tile_prefetch)(q, nt, rs, most);
#ifdef FLANE
    if (kind == ARGEXT_KIND_FLOAT &&
        F(tile_reduce_floats)(q, nt, rs, ahead, g, kb, ri, last, op, kind, inf, sw))
        return;
#else
    if (W == 2 && V_BYTES == 32 && kind == ARGEXT_KIND_FLOAT &&
        L(tile_reduce_half)(q, nt, rs, ahead, g, kb, ri, last, op, inf, sw))
        return;
#endif
    ARGEXT_UNROLL
    for (int u = 0; u < g; u++) {
        kb[u] = L(keys_at)(q + u * V_BYTES, op, kind, inf, sw);
        ri[u] = L(v_set1)(0);
    }
    for (int64_t t = 1; t < nt; t++) {
        const vec row = L(v_set1)(t);
        if (ahead)
            argext_prefetch((const char *)((uintptr_t)(q + t * rs) + (uintptr_t)ahead));
        ARGEXT_UNROLL
        for (int u = 0; u < g; u++) {
            const vec k = L(keys_at)(q + t * rs + u * V_BYTES, op, kind, inf, sw);
            ri[u] = last ? L(v_sel_gt)(kb[u], k, row, ri[u]) : L(v_sel_gt)(k, kb[u], ri[u], row);
            kb[u] = L(v_max)(kb[u], k);
        }
    }
}

/* One vector's result (columns from jj) into best and idx, where row t
   has flat index f0 + t * fw; init: the rows are the fold's first. Their
   indices go out as whole vectors staged in L1 from 32-byte vectors on
   (Intel Xeon, float32 (8, 8192) over axis 0 against lane by lane: avx512
   1.6x, avx2 1.06x; sse4.2 0.48x, its loads of two staged indices
   forwarded from two stores), and with stream by non-temporal stores where
   they fill whole lines from one. */
VINLINE void L(tile_merge)(int64_t jj, vec kb, vec ri, int64_t f0, int64_t fw, char *best,
                           int64_t *idx, vec flip, int last, int init, int stream)
{
    enum { LANES = V_BYTES / W };
    LANE_INT row[LANES];
    v_store((char *)row, ri);
    if (init) {
        v_store(best + jj * W, v_xor(kb, flip));
        if (V_BYTES < 32) {
            for (int l = 0; l < LANES; l++)
                idx[jj + l] = f0 + row[l] * fw;
            return;
        }
        int64_t staged[LANES];
        for (int l = 0; l < LANES; l++)
            staged[l] = f0 + row[l] * fw;
        char *o = (char *)(idx + jj);
        stream = stream && LANES * 8 >= 64 && (uintptr_t)o % 64 == 0;
        for (int b = 0; b < LANES * 8; b += V_BYTES) {
            if (stream)
                v_stream(o + b, v_load((const char *)staged + b));
            else
                v_store(o + b, v_load((const char *)staged + b));
        }
        return;
    }
    const vec b = v_xor(v_load(best + jj * W), flip);
    const uint64_t up = last ? L(v_ge)(kb, b) : L(v_gt)(kb, b);
    if (!up)
        return;
    v_store(best + jj * W, v_xor(L(v_max)(kb, b), flip));
    for (int l = 0; l < LANES; l++) /* branch-free: which lanes improve is random */
        idx[jj + l] = (up >> (l * MASK_BITS(W))) & 1 ? f0 + row[l] * fw : idx[jj + l];
}

/* The fold of rows <= TILE_ROWS rows, a line of columns at a time: each
   column's best over the rows in registers, then one store of its key and
   index. One pass over the rows' lines side by side and no store per
   row, where the row-at-a-time fold rereads and rewrites the block's keys
   and indices for every row (from L3 when they outgrow L2: Zen 3's 512
   KiB holds neither for 256 KiB of each row). With next_tile (the bytes
   to a narrow block's next tile of rows; 0: none), each row's line of the
   next line of columns is asked for as the rows go down, and the last
   line's pass asks for the next tile's first: a tall tile's passes down
   its rows leave the hardware prefetchers no stream to follow. Tiles of up
   to `most` rows ask TILE_PREFETCH bytes on (tile_prefetch). */
VINLINE void L(cols_tile)(const char *p, int64_t rows, int64_t rs, int64_t next_tile, int64_t most,
                          int64_t fw, int64_t bn, int64_t f0, char *best, int64_t *idx, vec flip,
                          int last, int init, int stream, int op, int kind, int64_t inf, int sw)
{
    enum { LANES = V_BYTES / W, G = TILE_VECS };
    vec kb[G], ri[G];
    int64_t j = 0;
    for (; j + G * LANES <= bn; j += G * LANES) {
        const int64_t ahead = !next_tile ? 0 : j + 2 * G * LANES <= bn ? G * V_BYTES : next_tile - j * W;
        L(tile_reduce)(p + j * W, rows, rs, ahead, most, G, kb, ri, last, op, kind, inf, sw);
        ARGEXT_UNROLL
        for (int u = 0; u < G; u++)
            L(tile_merge)(j + u * LANES, kb[u], ri[u], f0, fw, best, idx, flip, last, init,
                          stream);
    }
    for (; j < bn; j += LANES) { /* the last may overlap the one before: idempotent */
        const int64_t jj = L(cols_vector)(j, bn);
        L(tile_reduce)(p + jj * W, rows, rs, next_tile ? next_tile - jj * W : 0, most, 1, kb, ri,
                       last, op, kind, inf, sw);
        L(tile_merge)(jj, kb[0], ri[0], f0, fw, best, idx, flip, last, init, 0);
    }
}

/* Blocks narrower than this many vectors fold by tiles of rows in
   registers: under 8, or under 16 at 16- and 32-byte vectors where the
   fold's rows span at most COLS_TILE_MORE_BYTES (in cache), but not for
   the last occurrence of one- and two-byte lanes (whose ties the pairs
   absorb). Zen 3, blocks of 8-15 vectors in calls of 2-4 MiB against the
   row-at-a-time fold: avx2 float32 1.36-1.75x, float64 1.75x, int32
   1.39x, int8 1.46-1.63x, float16 1.51x, last occurrence float32 1.39x;
   sse4.2 float32 3.4-4.9x, int8 3.8x; asking ahead (COLS_TILE_AHEAD_BYTES),
   at avx2 from 4.5 to 9 MiB 1.26-1.73x, from 12 MiB 0.62-0.95x (DRAM: the
   row-at-a-time fold's one stream reads faster), so avx2 takes them up to
   8 MiB; 4 MiB at sse4.2 and avx512, whose tiles do not ask ahead. */
#define COLS_TILE_MORE_BYTES (V_BYTES == 32 ? 8 << 20 : 4 << 20)
VINLINE int64_t L(cols_narrow_vecs)(int64_t rows, int64_t bn, int last)
{
    return V_BYTES <= 32 && rows * bn * W <= COLS_TILE_MORE_BYTES && !(last && W <= 2) ? 16 : 8;
}

/* Narrow blocks' tall tiles ask memory ahead (cols_tile's next_tile) in
   folds of more than this many bytes, at avx2. Zen 3, blocks under 8
   vectors from DRAM (16-32 MiB), against tiles without: float32
   1.05-1.24x, float64 1.24x, int8 1.24-1.52x, int16 1.17x, float16 1.23x,
   int32 1.27x, int64 1.31-1.58x. At sse4.2 (two lines a row of float64:
   the next line is the one the adjacent-line prefetcher brings) float64
   (262144, 16) lost 0.87x while other blocks gained 1.13-1.56x; not taken
   there. Nor at avx512 (Zen 4: float32 (262144, 32) 0.95x, int8 (262144,
   64) 0.84x, last occurrence 0.85x; float32 (12288, 96) 1.18x). */
#define COLS_TILE_AHEAD_BYTES (4 << 20)

/* The most rows a fold takes in one tile: TILE_ROWS, or where this CPU's
   tiles are tall (platform.h's argext_fold_tiles) TALL_TILE_ROWS, but for
   16-bit floats at 64-byte vectors (Intel Xeon, float16 / bfloat16 (4, 21,
   512, 512) in L3 0.91-0.93x, from DRAM (48, 21, 512, 512) 1.14x). */
VINLINE int64_t L(fold_tile_rows)(int kind)
{
    const int keyed16 = V_BYTES == 64 && W == 2 && kind == ARGEXT_KIND_FLOAT;
    return argext_fold_tiles_mode() == ARGEXT_FOLD_TILES_TALL && !keyed16 ? TALL_TILE_ROWS
                                                                           : TILE_ROWS;
}

/* Whether a fold's pairs ask for the rows ahead (cols_pair): not where
   ARGEXT_ROW_PREFETCH_IN_CACHE's Intel reads its rows at DRAM's speed
   (the fold spans SCAN_CACHE_BYTES or more) in runs of COLS_FAR_RUN_BYTES
   or more of each row, at 64-byte vectors but for 16-bit floats: the
   hardware prefetchers follow such runs better alone. Intel Xeon, 1 GiB,
   avx512, against asking: float32 (64, 4194304) over axis 0 1.22x, (300,
   1048576) 1.17x, (1, 100, 2621440) over axis 1 1.22x, float64 1.19x,
   int16 1.17x, int8 1.06x, float16 0.93x; avx2 0.90-0.93x, sse4.2
   0.47x. The engine keeps such runs over many rows (cols_unasked). Such
   folds take every row in pairs: rows folded alone (past CHUNKED_ROWS)
   read a stream a row at a time, which lost without asks (0.92-0.95x) and
   gains as pairs without them: float32 (1000, 262144) 1.36x, (1024, 65536)
   1.36x, (300, 1048576) 1.15x, float64 (1000, 131072) 1.41x, int8 /
   int16 1.44x / 1.36x. Tiles keep theirs (float32 (1, 16, 16777216)
   0.89x without). Runs of 16 KiB gain too (float32 (65536, 4096) 1.31x,
   float64 (65536, 2048) 1.17x, int16 (65536, 8192) 1.17x), 8 KiB ones
   not (float64 0.95x, int32 0.90x); int8 needs 32 KiB ((32768, 32768)
   1.40x, 16 KiB 0.93x). */
#define COLS_FAR_RUN_BYTES (16 << 10)
/* The run of each row a fold of bn columns streams: twice its own where
   the row is at least twice as long, as two threads' parts of one row
   read side by side. Intel Xeon, avx512, 1 GiB over axis 0, two threads
   (8 KiB runs each), against asking: float32 (65536, 4096) 1.08-1.14x,
   float64 (65536, 2048) 1.09x, int16 (65536, 8192) 1.11x, int8 (32768,
   32768) (16 KiB) 1.07x; one thread 1.00x. */
VINLINE int64_t L(cols_far_run)(int64_t rs, int64_t bn)
{
    const int64_t run = bn * W, row = rs < 0 ? -rs : rs;
    return row >= 2 * run ? 2 * run : run;
}
VINLINE int L(cols_fold_asks)(int64_t rows, int64_t rs, int64_t bn, int kind)
{
    return argext_row_prefetch_mode() != ARGEXT_ROW_PREFETCH_IN_CACHE || V_BYTES != 64 ||
           (W == 2 && kind == ARGEXT_KIND_FLOAT) ||
           L(cols_far_run)(rs, bn) < (COLS_FAR_RUN_BYTES << (W == 1)) ||
           rows * (rs < 0 ? -rs : rs) < SCAN_CACHE_BYTES;
}

/* The fold: row r has flat index f0 + r * fw; init makes row 0 the start;
   stream as the column kernel (abi.h) takes it, from 32-byte vectors on:
   a fold of up to TILE_ROWS rows (fold_tile_rows: more on Intel), or of
   up to ROW_CHUNK rows by pairs, writes each index once. Intel Xeon,
   float32 over axis 0, against plain stores: avx512 (8, 33554432) from
   DRAM 1.25x, (2, 134217728) 1.75x, (16, 16777216) 1.14x, (8, 2097152) in
   L3 1.37x; avx2 (8, 33554432) 1.20x; sse4.2's 16-byte stores lost
   (float16 0.77x). */
VINLINE void L(cols_fold)(const char *p, int64_t rows, int64_t rs, int64_t fw, int64_t bn,
                          int64_t f0, int last, int init, int stream, char *best, int64_t *idx,
                          int8_t *row_of, int op, int kind, int64_t inf, int sw)
{
    const vec flip = L(v_set1)(kind == ARGEXT_KIND_UNSIGNED ? SMIN(W) : 0);
    stream = stream && init && V_BYTES >= 32;
    const int narrow = bn * W < L(cols_narrow_vecs)(rows, bn, last) * V_BYTES;
    const int64_t tile_rows = narrow ? TILE_ROWS : L(fold_tile_rows)(kind);
    if (rows <= tile_rows) {
        L(cols_tile)(p, rows, rs, 0, tile_rows, fw, bn, f0, best, idx, flip, last, init, stream, op,
                     kind, inf, sw);
        if (stream)
            v_stream_fence();
        return;
    }
    if (narrow) {
        /* narrow blocks: tiles of rows in registers, their rows numbered in
           lanes (int8: 128 rows), NARROW_TILE_BYTES at most */
        const int64_t fit = NARROW_TILE_BYTES / (bn * W), most = W == 1 ? 128 : 32768;
        const int64_t tile = fit < TILE_ROWS ? TILE_ROWS : fit < most ? fit : most;
        const int64_t next_tile =
            V_BYTES == 32 && rows * bn * W > COLS_TILE_AHEAD_BYTES ? tile * rs : 0;
        for (int64_t t0 = 0; t0 < rows; t0 += tile, init = 0)
            L(cols_tile)(p + t0 * rs, rows - t0 < tile ? rows - t0 : tile, rs, next_tile, TILE_ROWS,
                         fw, bn, f0 + t0 * fw, best, idx, flip, last, init, 0, op, kind, inf, sw);
        return;
    }
    int64_t r = 0;
    const int ask = L(cols_fold_asks)(rows, rs, bn, kind);
    if (init) {
        const uintptr_t pf0 = L(cols_ahead)(p, 1, rows, rs, bn);
        const uintptr_t pf1 = L(cols_ahead)(p, 2, rows, rs, bn);
        for (int64_t j = 0; j < bn; j += V_BYTES / W) {
            int64_t jj = L(cols_vector)(j, bn);
            if (ask) {
                argext_prefetch((const char *)(pf0 + (uintptr_t)(jj * W)));
                argext_prefetch((const char *)(pf1 + (uintptr_t)(jj * W)));
            }
            v_store(best + jj * W, v_xor(L(keys_at)(p + jj * W, op, kind, inf, sw), flip));
        }
        r = 1;
    }
#if ISA_MASKED_STORE
    /* every row where the ISA says so, or where ties of the extreme are
       common (lanes of one or two bytes) and each tie would store indices
       for the last occurrence (Zen 3, sse4.2: int8 1.7x), or where the
       pairs do not ask ahead (cols_fold_asks) */
    const int chunk_all = ISA_FOLD_ALL_PAIRS || (last && W <= 2) || !ask;
    const int64_t chunked = chunk_all ? rows : CHUNKED_ROWS;
    L(cols_chunks)(p, r, rows, chunked, rs, fw, bn, f0, init, stream, ask, best, idx, row_of, flip,
                   last, op, kind, inf, sw);
    if (rows <= chunked)
        return;
    r = chunked;
    init = 0;
#else
    (void)row_of;
#endif
    if (init)
        for (int64_t j = 0; j < bn; j++)
            idx[j] = f0;
    for (; r < rows; r++)
        L(cols_row_index)(p, r, rs, fw, bn, f0, best, idx, flip, last, r < DENSE_ROWS, op, kind,
                          inf, sw);
}
