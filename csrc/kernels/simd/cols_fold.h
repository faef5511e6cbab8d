/*
 * cols_fold.h - the column fold of one lane width (for_each_lane.h):
 * bn >= V_BYTES / W contiguous columns folded over `rows` rows. The first
 * DENSE_ROWS rows update most columns of random data, so they store without
 * a (mispredicted) test; later rows store only where a column improves.
 * The last vector of a row may overlap the one before it (idempotent: a
 * column updated twice by the same row gets the same key and index).
 * best holds the keys of dtypes.h (unsigned ones flipped back, `flip`).
 */

/* The vector of columns from jj (the last one ends at bn) after j. */
VINLINE int64_t L(cols_vector)(int64_t j, int64_t bn)
{
    return j + V_BYTES / W <= bn ? j : bn - V_BYTES / W;
}

/* Columns jj.. of row q folded into best. Returns 1 and the lanes that
   improve (*up) where any may (every row before DENSE_ROWS), else 0. Each
   vector's next row is asked for a row ahead: the fold's stream of rows,
   interleaved with its best keys and indices, outruns the hardware
   prefetcher even when the rows are back to back. The address may lie
   past the input: it is formed as an integer. */
VINLINE int L(cols_update)(const char *q, int64_t jj, int64_t rs, int64_t r, char *best, vmask *up,
                           vec flip, int last, int op, int kind, int64_t inf, int sw)
{
    argext_prefetch((const char *)((uintptr_t)q + (uintptr_t)(rs + jj * W)));
    vec k = L(keys_at)(q + jj * W, op, kind, inf, sw);
    vec b = v_xor(v_load(best + jj * W), flip);
    if (r >= DENSE_ROWS && !(last ? L(v_ge)(k, b) : L(v_gt)(k, b)))
        return 0;
    *up = last ? L(v_gem)(k, b) : L(v_gtm)(k, b);
    v_store(best + jj * W, v_xor(L(v_max)(k, b), flip));
    return 1;
}

/* Row r of the fold: where a column improves, idx = the row's flat index f. */
VINLINE void L(cols_row_index)(const char *p, int64_t r, int64_t rs, int64_t bn, int64_t f,
                               char *best, int64_t *idx, vec flip, int last, int op, int kind,
                               int64_t inf, int sw)
{
    const char *q = p + r * rs;
    for (int64_t j = 0; j < bn; j += V_BYTES / W) {
        int64_t jj = L(cols_vector)(j, bn);
        vmask up;
        if (L(cols_update)(q, jj, rs, r, best, &up, flip, last, op, kind, inf, sw))
            L(v_store_index)(idx + jj, up, f);
    }
}

#if ISA_MASKED_STORE
/* Row r < DENSE_ROWS of the fold: where a column improves, row_of = r (a
   byte; the indices are written once after the dense rows). */
VINLINE void L(cols_row_byte)(const char *p, int64_t r, int64_t rs, int64_t bn, char *best,
                              int8_t *row_of, vec flip, int last, int op, int kind, int64_t inf,
                              int sw)
{
    const char *q = p + r * rs;
    for (int64_t j = 0; j < bn; j += V_BYTES / W) {
        int64_t jj = L(cols_vector)(j, bn);
        vmask up;
        if (L(cols_update)(q, jj, rs, r, best, &up, flip, last, op, kind, inf, sw))
            L(v_store_row)(row_of + jj, up, (int)r);
    }
}

/* The dense rows from r on by row bytes; returns the next row. */
VINLINE int64_t L(cols_dense_rows)(const char *p, int64_t r, int64_t rows, int64_t rs, int64_t fw,
                                   int64_t bn, int64_t f0, int init, char *best, int64_t *idx,
                                   vec flip, int last, int op, int kind, int64_t inf, int sw)
{
    const int64_t dense_rows = rows < DENSE_ROWS ? rows : DENSE_ROWS;
    int8_t row_of[ROWBUF_COLS];
    memset(row_of, init ? 0 : -1, (size_t)bn);
    for (; r < dense_rows; r++)
        L(cols_row_byte)(p, r, rs, bn, best, row_of, flip, last, op, kind, inf, sw);
    for (int64_t j = 0; j < bn; j++)
        if (row_of[j] >= 0)
            idx[j] = f0 + row_of[j] * fw;
    return r;
}
#endif

/* The fold: row r has flat index f0 + r * fw; init makes row 0 the start. */
VINLINE void L(cols_fold)(const char *p, int64_t rows, int64_t rs, int64_t fw, int64_t bn,
                          int64_t f0, int last, int init, char *best, int64_t *idx, int op,
                          int kind, int64_t inf, int sw)
{
    const vec flip = L(v_set1)(kind == ARGEXT_KIND_UNSIGNED ? SMIN(W) : 0);
    int64_t r = 0;
    if (init) {
        for (int64_t j = 0; j < bn; j += V_BYTES / W) {
            int64_t jj = L(cols_vector)(j, bn);
            v_store(best + jj * W, v_xor(L(keys_at)(p + jj * W, op, kind, inf, sw), flip));
        }
        r = 1;
    }
#if ISA_MASKED_STORE
    if (bn <= ROWBUF_COLS) {
        r = L(cols_dense_rows)(p, r, rows, rs, fw, bn, f0, init, best, idx, flip, last, op, kind,
                               inf, sw);
        init = 0;
    }
#endif
    if (init)
        for (int64_t j = 0; j < bn; j++)
            idx[j] = f0;
    for (; r < rows; r++)
        L(cols_row_index)(p, r, rs, bn, f0 + r * fw, best, idx, flip, last, op, kind, inf, sw);
}
