/*
 * rows_mid.h - contiguous rows of medium length, one lane width
 * (for_each_lane.h): rows of n elements, from one vector to mid_row_vecs
 * vectors, any n. Each row is read as its whole vectors and one last vector
 * ending at the row's end (overlapping the ones before when n is not a
 * multiple of the lanes): their maximum by a tree, one horizontal maximum,
 * then each vector's lanes equal to it, the first (last) such lane taken
 * without a branch. A lane the last vector repeats holds the same bit in
 * the vector before it: the first-occurrence pass meets the earlier copy
 * after it, and the last-occurrence pass takes the copy itself, at its own
 * index. float32/float64 compare as floats, and rows holding a NaN by keys
 * (as the dense path does). No data-dependent branch but the NaN test: the
 * row scan's chunk bookkeeping costs more than these rows take.
 *
 * Longer rows, up to mid_block_bytes at avx2 and avx512, keep each block's extreme
 * instead, and search only the first (last) block holding the row's.
 */

/* The most vectors of a row rows_mid reads twice (mid_row_floats,
   mid_row_keys): about 512 bytes of keys, more for float compares. */
VINLINE int64_t L(mid_row_vecs)(int floats)
{
    return V_BYTES >= 64 ? (W == 1 ? 8 : W == 2 ? 12 : W == 4 && !floats ? 12 : 16)
           : V_BYTES >= 32 ? (floats ? 24 : 16)
                           : (floats ? 32 : 24);
}

/* Rows past mid_row_vecs go by block extremes (mid_row_blocks,
   mid_row_key_blocks) at avx2 and avx512 (MID_BLOCK_ROWS) up to mid_block_bytes,
   where that measured faster than the row scan on Zen 3 (in L2, first /
   last occurrence): float32 rows of 200-512 1.13-1.33x / 1.04-1.25x,
   float64 of 100-256 1.24-1.52x / 1.06-1.23x; int8 and uint8 rows of 600
   to 2000 1.05-1.38x / 1.20-1.57x, int16, float16 and bfloat16 of 300 to
   1000 1.07-1.52x / 1.05-1.36x; int32 of 150-256 1.40-1.45x / 1.07-1.35x,
   int64 of 75 1.31x / 1.24x. Past those lengths the last occurrence lost:
   float32 rows of 700-768 0.94-0.97x, int32 of 500 0.95x, int64 of 128
   0.94x (the row scan tests 32- and 64-bit integer blocks against the
   best). The first occurrence by float compares goes on to 4 KiB in rows
   starting on a vector (Zen 3, in L2 or from DRAM: float32 rows of
   600-1024 1.06-1.18x, float64 of 300-512 1.10-1.28x; two builds' code
   layout alone moved a path they share by up to 10%); rows 16 bytes past
   one (NumPy's large arrays) read from DRAM ran 0.76-0.79x, though
   1.03-1.13x in L2, so they go on to 4 KiB only in calls under
   MID_DRAM_BYTES (in cache, most likely: float32 (1000, 1000) 1.06x in L3,
   (1500, 700) 1.16x, (250, 1000) in L2 1.15x, float64 (1000, 500) 1.08x,
   NumPy's classifier rows). At sse4.2, float rows of 50 vectors gained at most
   1.1x and of 95-175 lost 0.94-0.97x. avx512 too (Zen 4, in L3, against
   its row scan: float32 rows of 300 / 1000 2.05x / 1.12x, float64 and
   int32 of 200 1.68x / 1.58x, int8 of 1024 1.48x (uint8's last 1.64x),
   uint16 of 600 1.60x, float16 of 1000 1.16x, int64 of 75 1.06x; the
   lengths where avx2's last occurrence lost and DRAM 0.97-1.03x). neon,
   not measured, keeps the row scan. */
#define MID_BLOCK_BYTES 4096
#define MID_BLOCK_ROWS (V_BYTES >= 32)
/* Calls over this many bytes or more read their rows from DRAM, most likely. */
#define MID_DRAM_BYTES (8 << 20)
VINLINE int64_t L(mid_block_bytes)(int floats, int last, int aligned, int dram)
{
    return floats && !last && (aligned || !dram) ? MID_BLOCK_BYTES
                                                 : floats || W <= 2 ? 2048 : W == 4 ? 1024 : 640;
}

/* The index of the row's first (last) lane set in bits, the vector's bits
   for the lanes from element `at` on, folded into pos: later calls win, so
   `first` passes the vectors from the row's end, `last` from its start. */
VINLINE int64_t L(mid_fold)(int64_t pos, uint64_t bits, int64_t at, int last)
{
    const int64_t lb = MASK_BITS(W);
    const int64_t c = at + (last ? msb64(bits | 1) : ctz64(bits | (UINT64_C(1) << 63))) / lb;
    const uint64_t keep = (uint64_t)0 - (uint64_t)(bits == 0); /* a select, not a branch */
    return (int64_t)(((uint64_t)pos & keep) | ((uint64_t)c & ~keep));
}

#ifdef FLANE
/* The row at q by float compares: 1 and its index in *out, or 0 when the
   row holds a NaN that must be ranked (MAX and MIN; the NaN-skipping
   operators read a NaN as the infinity that never wins, as their keys do). */
VINLINE int F(mid_row_floats)(const char *q, int64_t n, int64_t nv, int last, int64_t *out, int op,
                              int64_t inf)
{
    const int64_t lanes = V_BYTES / W; /* nv: (n - 1) / lanes, the whole vectors before the last */
    const int is_min = ARGEXT_OP_IS_MIN(op), skips_nan = ARGEXT_OP_SKIPS_NAN(op);
    const char *tail = q + (n - lanes) * W;
    const vec t = F(v_load_floats)(tail, op, inf, 0);
    vec e[4] = {t, t, t, t}; /* four chains in flight */
    fmask nan = F(v_funord)(t, t);
    int64_t v = 0;
    for (; v + 4 <= nv; v += 4) {
        vec x[4];
        for (int j = 0; j < 4; j++) {
            x[j] = F(v_load_floats)(q + (v + j) * V_BYTES, op, inf, 0);
            e[j] = F(v_fext)(is_min, e[j], x[j]);
        }
        nan = v_for(nan, v_for(F(v_funord)(x[0], x[1]), F(v_funord)(x[2], x[3])));
    }
    for (int j = 0; j < 3 && v + j < nv; j++) { /* up to three */
        vec x = F(v_load_floats)(q + (v + j) * V_BYTES, op, inf, 0);
        e[j] = F(v_fext)(is_min, e[j], x);
        nan = v_for(nan, F(v_funord)(x, x));
    }
    if (!skips_nan && v_fany(nan))
        return 0;
    const vec x = F(v_fext)(is_min, F(v_fext)(is_min, e[0], e[1]), F(v_fext)(is_min, e[2], e[3]));
    const vec m = L(v_hext_within)(x, V_BYTES, 1, is_min);
    int64_t pos = 0;
    if (last) {
        for (v = 0; v < nv; v++)
            pos = L(mid_fold)(pos, v_fbits(F(v_feq)(F(v_load_floats)(q + v * V_BYTES, op, inf, 0), m)),
                              v * lanes, 1);
        pos = L(mid_fold)(pos, v_fbits(F(v_feq)(t, m)), n - lanes, 1);
    } else {
        pos = L(mid_fold)(pos, v_fbits(F(v_feq)(t, m)), n - lanes, 0);
        for (v = nv - 1; v >= 0; v--)
            pos = L(mid_fold)(pos, v_fbits(F(v_feq)(F(v_load_floats)(q + v * V_BYTES, op, inf, 0), m)),
                              v * lanes, 0);
    }
    *out = pos;
    return 1;
}
#endif

/* Rows of at most DENSE_ROW_MAX elements ask memory ahead as dense short
   rows do, on every CPU: on Zen 3 (whose row scans go without, as Zen 4's
   measured faster), avx2, from DRAM, float32 rows of 10-56 1.10-1.35x,
   float64 and int64 of 6 1.32x and 1.36x, int32 of 20 1.24x, int8 of 40
   1.29x, float16 of 20 1.16x; at sse4.2 float32 of 6 1.45x. Longer rows
   ask by their blocks (scan_ahead), and where the row scans always ask,
   for the whole row first too in calls of MID_FAR_BYTES or more (past
   a 32 MiB L3) or at 16-byte vectors: in cache
   that first ask cost 32- and 64-byte vectors up to half their speed
   (Zen 5, 4 MiB, against it: avx512 float32 rows of 300-1000 1.6x,
   float64 of 200 1.9x, int8 of 1024 2.0-2.3x, uint16 of 600 1.6x,
   float16 of 1000 1.4x; avx2 1.2-2.0x; sse4.2 int32 of 100 0.95-1.0x
   without). On Zen 3 (ARGEXT_ROW_PREFETCH_BY_SIZE)
   rows of up to MID_PREFETCH_DRAM_BYTES in calls read from DRAM ask as
   the short ones do instead: float32 rows of 65-500 1.13-1.47x, float64
   of 256 1.13x, int32 of 200 1.13x, int8 of 1000 1.57x; float32 of 600
   1.03x, of 1000 0.86-0.93x (their blocks asking too: float32 rows of
   256 and 500 0.96-0.98x). Returns 1 where the row asked so. */
#define MID_PREFETCH_DRAM_BYTES 2048
#define MID_FAR_BYTES (32 << 20)
VINLINE int L(mid_prefetch)(const char *p, int64_t n, int dram, int far)
{
    if (n <= DENSE_ROW_MAX || (dram && n * W <= MID_PREFETCH_DRAM_BYTES &&
                               argext_row_prefetch_mode() == ARGEXT_ROW_PREFETCH_BY_SIZE)) {
        prefetch_dense(p, n * W);
        return 1;
    }
    if (argext_row_prefetch_on() && (far || V_BYTES < 32))
        prefetch_ahead(p, n * W);
    return 0;
}

/* What mid_find looks for: a key equal to m, a float equal to m, a NaN. */
#define MID_KEY 0
#define MID_FLOAT 1
#define MID_NAN 2

/* The first (last) element of the nv vectors from element at that is
   what `find` says, or -1: a branch per vector, taken once. */
VINLINE int64_t L(mid_find)(const char *p, int64_t at, int64_t nv, vec m, int last, int find, int op,
                            int kind, int64_t inf)
{
    const int64_t lanes = V_BYTES / W;
    for (int64_t j = 0; j < nv; j++) {
        const int64_t e = at + (last ? nv - 1 - j : j) * lanes;
        uint64_t bits;
#ifdef FLANE
        if (find != MID_KEY) {
            const vec x = F(v_load_floats)(p + e * W, op, inf, 0);
            bits = v_fbits(find == MID_NAN ? F(v_funord)(x, x) : F(v_feq)(x, m));
        } else
#endif
            bits = L(v_eq)(L(keys_at)(p + e * W, op, kind, inf, 0), m);
        (void)find;
        if (bits)
            return e + (last ? msb64(bits) : ctz64(bits)) / MASK_BITS(W);
    }
    return -1;
}

/* The row's first (last) element that is what `find` says, searched in
   index order (reversed for `last`): the first vector, the nb blocks from
   element i0 (each block whose extreme bm[b] equals m; every block for a
   NaN), the nr whole vectors after them and the last vector. */
VINLINE int64_t L(mid_search)(const char *p, int64_t n, int64_t i0, int64_t nb, int64_t nr, const vec *bm,
                              vec m, int last, int find, int op, int kind, int64_t inf)
{
    const int64_t lanes = V_BYTES / W, block = lanes * BLOCK_VECS, r0 = i0 + nb * block;
    int64_t pos = L(mid_find)(p, last ? n - lanes : 0, 1, m, last, find, op, kind, inf);
    if (pos < 0 && last)
        pos = L(mid_find)(p, r0, nr, m, 1, find, op, kind, inf);
    for (int64_t j = 0; pos < 0 && j < nb; j++) {
        const int64_t b = last ? nb - 1 - j : j;
        uint64_t holds = find == MID_NAN || L(v_eq)(bm[b], m);
#ifdef FLANE
        if (find == MID_FLOAT)
            holds = v_fbits(F(v_feq)(bm[b], m));
#endif
        if (holds)
            pos = L(mid_find)(p, i0 + b * block, BLOCK_VECS, m, last, find, op, kind, inf);
    }
    if (pos < 0)
        pos = last ? L(mid_find)(p, 0, 1, m, 1, find, op, kind, inf)
                   : L(mid_find)(p, r0, nr, m, 0, find, op, kind, inf);
    if (pos < 0 && !last)
        pos = L(mid_find)(p, n - lanes, 1, m, 0, find, op, kind, inf);
    return pos;
}


#ifdef FLANE
/* A float row of at least two whole blocks from its first vector boundary
   and at most MID_BLOCK_BYTES: the first vector, each block's extreme
   (block_ext), the whole vectors after the blocks and the last vector
   (which may overlap them) read once; then the row's extreme searched for
   in the first (last) block holding it (mid_search). A row holding a NaN
   has its first (last) NaN searched for instead: it wins (MAX, MIN).
   From DRAM (`late`), a row off a vector boundary reads its last vector
   after the rest: Zen 3, avx2, float32 rows of 200-512 and float64 of
   128-256 16 bytes past a vector 1.09-1.35x. In cache float64 lost 7-15%
   by that order, and rows on a vector boundary 9-22% from DRAM. */
VINLINE int64_t F(mid_row_blocks)(const char *p, int64_t n, int last, int late, int ahead, int op,
                                   int kind, int64_t inf)
{
    const int64_t lanes = V_BYTES / W, block = lanes * BLOCK_VECS;
    const int is_min = ARGEXT_OP_IS_MIN(op), skips_nan = ARGEXT_OP_SKIPS_NAN(op);
    const int64_t i0 = L(row_head_elements)(p), nb = (n - i0) / block;
    const int64_t r0 = i0 + nb * block, nr = (n - r0) / lanes; /* the whole vectors after */
    const int late_tail = late && i0 > 0;
    const char *tail = p + (n - lanes) * W;
    vec e = F(v_load_floats)(p, op, inf, 0), bm[MID_BLOCK_BYTES / (BLOCK_VECS * V_BYTES)];
    fmask nan = F(v_funord)(e, e);
    if (!late_tail) {
        const vec t = F(v_load_floats)(tail, op, inf, 0);
        nan = v_for(nan, F(v_funord)(t, t));
        e = F(v_fext)(is_min, e, t);
    }
    for (int64_t b = 0; b < nb; b++) {
        bm[b] = F(block_ext)(p + (i0 + b * block) * W, op, inf, 0, ahead, &nan);
        e = F(v_fext)(is_min, e, bm[b]);
    }
    for (int64_t v = 0; v < nr; v++) {
        const vec x = F(v_load_floats)(p + (r0 + v * lanes) * W, op, inf, 0);
        nan = v_for(nan, F(v_funord)(x, x));
        e = F(v_fext)(is_min, e, x);
    }
    if (late_tail) {
        const vec t = F(v_load_floats)(tail, op, inf, 0);
        nan = v_for(nan, F(v_funord)(t, t));
        e = F(v_fext)(is_min, e, t);
    }
    if (ISA_FMAX_KEEPS_NAN)
        nan = F(v_funord)(e, e); /* a NaN stays the extreme */
    if (!skips_nan && v_fany(nan))
        return L(mid_search)(p, n, i0, nb, nr, bm, e, last, MID_NAN, op, kind, inf);
    return L(mid_search)(p, n, i0, nb, nr, bm, L(v_hext_within)(e, V_BYTES, 1, is_min), last, MID_FLOAT,
                         op, kind, inf);
}
#endif

/* mid_row_blocks in keys, for every dtype: each block's key maximum
   (block_max). */
VINLINE int64_t L(mid_row_key_blocks)(const char *p, int64_t n, int last, int ahead, int op, int kind,
                                      int64_t inf)
{
    const int64_t lanes = V_BYTES / W, block = lanes * BLOCK_VECS;
    const int64_t i0 = L(row_head_elements)(p), nb = (n - i0) / block;
    const int64_t r0 = i0 + nb * block, nr = (n - r0) / lanes;
    vec e = L(v_max)(L(keys_at)(p, op, kind, inf, 0), L(keys_at)(p + (n - lanes) * W, op, kind, inf, 0));
    vec bm[MID_BLOCK_BYTES / (BLOCK_VECS * V_BYTES)];
    for (int64_t b = 0; b < nb; b++) {
        bm[b] = L(block_max)(p + (i0 + b * block) * W, op, kind, inf, 0, ahead);
        e = L(v_max)(e, bm[b]);
    }
    for (int64_t v = 0; v < nr; v++)
        e = L(v_max)(e, L(keys_at)(p + (r0 + v * lanes) * W, op, kind, inf, 0));
    return L(mid_search)(p, n, i0, nb, nr, bm, L(v_hmax)(e), last, MID_KEY, op, kind, inf);
}

/* mid_row_floats in keys, for every dtype. */
VINLINE int64_t L(mid_row_keys)(const char *q, int64_t n, int64_t nv, int last, int op, int kind,
                                int64_t inf)
{
    const int64_t lanes = V_BYTES / W;
    const vec t = L(keys_at)(q + (n - lanes) * W, op, kind, inf, 0);
    vec a[4] = {t, t, t, t};
    int64_t v = 0;
    for (; v + 4 <= nv; v += 4)
        for (int j = 0; j < 4; j++)
            a[j] = L(v_max)(a[j], L(keys_at)(q + (v + j) * V_BYTES, op, kind, inf, 0));
    for (int j = 0; j < 3 && v + j < nv; j++) /* up to three */
        a[j] = L(v_max)(a[j], L(keys_at)(q + (v + j) * V_BYTES, op, kind, inf, 0));
    const vec m = L(v_hmax)(L(v_max)(L(v_max)(a[0], a[1]), L(v_max)(a[2], a[3])));
    int64_t pos = 0;
    if (last) {
        for (v = 0; v < nv; v++)
            pos = L(mid_fold)(pos, L(v_eq)(L(keys_at)(q + v * V_BYTES, op, kind, inf, 0), m), v * lanes, 1);
        pos = L(mid_fold)(pos, L(v_eq)(t, m), n - lanes, 1);
    } else {
        pos = L(mid_fold)(pos, L(v_eq)(t, m), n - lanes, 0);
        for (v = nv - 1; v >= 0; v--)
            pos = L(mid_fold)(pos, L(v_eq)(L(keys_at)(q + v * V_BYTES, op, kind, inf, 0), m), v * lanes, 0);
    }
    return pos;
}

/* Rows of nv + 1 vectors at most (nv a constant where it is called,
   so that the loops over the vectors unroll and hold no branch: rows of
   ten float32 took 25 cycles each at avx2 with the vector count a
   variable). Zen 3, avx2, against that: float32 rows of 10 to 30 and
   float64 of 5 to 12 1.4-1.8x in L2, rows of 10 1.28x from DRAM; rows of
   3 and 4 vectors from DRAM 0.93-0.96x, so they take it only in calls
   under MID_DRAM_BYTES. */
#ifdef FLANE
VINLINE void F(rows_mid_few)(const char *p, int64_t count, int64_t ps, int64_t n, int64_t nv, int last,
                             int dram, int far, int64_t *idx, int op, int kind, int64_t inf)
{
    for (int64_t k = 0; k < count; k++, p += ps) {
        L(mid_prefetch)(p, n, dram, far);
        if (!F(mid_row_floats)(p, n, nv, last, idx + k, op, inf)) /* a NaN: its keys by the loop */
            idx[k] = L(mid_row_keys)(p, n, (n - 1) / (V_BYTES / W), last, op, kind, inf);
    }
}
#endif

/* The same by keys (integers, float16, bfloat16). */
VINLINE void L(rows_mid_few_keys)(const char *p, int64_t count, int64_t ps, int64_t n, int64_t nv,
                                  int last, int dram, int far, int64_t *idx, int op, int kind, int64_t inf)
{
    for (int64_t k = 0; k < count; k++, p += ps) {
        L(mid_prefetch)(p, n, dram, far);
        idx[k] = L(mid_row_keys)(p, n, nv, last, op, kind, inf);
    }
}

/* Rows of n elements (entries.h, mid_rows), the p + k * ps for k < count:
   their indices. dram: the call spans MID_DRAM_BYTES or more. */
VINLINE void L(rows_mid)(const char *p, int64_t count, int64_t ps, int64_t n, int last, int dram,
                         int64_t *idx, int op, int kind, int64_t inf, int floats)
{
    const int blocks = n > L(mid_row_vecs)(floats) * (V_BYTES / W);
    const int64_t nv = (n - 1) / (V_BYTES / W);
    const int far = count * (ps < 0 ? -ps : ps) >= MID_FAR_BYTES;
#if W >= 4 && V_BYTES / W >= 4
    /* int32/uint32 rows in cache, first occurrence, measured 0.78x (their
       row at a time is cheap); their last occurrence 1.4-1.5x, from DRAM
       1.1-1.3x (Zen 3, avx2) */
    if (nv == 1 && (floats || W == 8 || last || dram)) {
        const int64_t done = L(rows_square_pairs)(p, count, ps, n, last, idx, op, kind, inf, floats);
        p += done * ps;
        idx += done;
        count -= done;
    }
#endif
    /* a constant in each copy; see rows_mid_few. Floats apart: with the
       keys' copies beside theirs, float32 rows of 10 measured 0.9x. */
#ifdef FLANE
    switch (floats && (nv <= 1 || !dram) ? nv : -1) {
    case 0: F(rows_mid_few)(p, count, ps, n, 0, last, dram, far, idx, op, kind, inf); return;
    case 1: F(rows_mid_few)(p, count, ps, n, 1, last, dram, far, idx, op, kind, inf); return;
    case 2: F(rows_mid_few)(p, count, ps, n, 2, last, dram, far, idx, op, kind, inf); return;
    case 3: F(rows_mid_few)(p, count, ps, n, 3, last, dram, far, idx, op, kind, inf); return;
    default: break;
    }
#endif
    switch (!floats && (nv <= 1 || !dram) ? nv : -1) {
    case 0: L(rows_mid_few_keys)(p, count, ps, n, 0, last, dram, far, idx, op, kind, inf); return;
    case 1: L(rows_mid_few_keys)(p, count, ps, n, 1, last, dram, far, idx, op, kind, inf); return;
    case 2: L(rows_mid_few_keys)(p, count, ps, n, 2, last, dram, far, idx, op, kind, inf); return;
    case 3: L(rows_mid_few_keys)(p, count, ps, n, 3, last, dram, far, idx, op, kind, inf); return;
    default: break;
    }
    const int ahead = scan_ahead(count * n * W, kind);
    for (int64_t k = 0; k < count; k++, p += ps) {
        const int blocks_ahead = !L(mid_prefetch)(p, n, dram, far) && ahead;
#ifdef FLANE
        if (floats && blocks) { /* two copies: the order a constant in each */
            idx[k] = dram ? F(mid_row_blocks)(p, n, last, 1, blocks_ahead, op, kind, inf)
                          : F(mid_row_blocks)(p, n, last, 0, blocks_ahead, op, kind, inf);
            continue;
        }
        if (floats && F(mid_row_floats)(p, n, nv, last, idx + k, op, inf))
            continue;
#endif
        (void)floats;
        idx[k] = blocks ? L(mid_row_key_blocks)(p, n, last, blocks_ahead, op, kind, inf)
                        : L(mid_row_keys)(p, n, nv, last, op, kind, inf);
    }
}
