/*
 * run.c - a plan run over ranges of kept positions, or over pieces of one
 * position's reduced elements, with the kernels it chose.
 */
#include <stdint.h>
#include <string.h>

#include "engine/plan.h"
#include "kernels/dtypes.h"

/* Bytes of byte-swapped short rows swapped per many-rows kernel call: they
   stay in L1 between the swap and the kernel, beside the input's lines
   (16 KiB: (1000, 500) float32 argmax 1.1x the time). Rows of
   SWAP_IN_PLACE_ROW_BYTES or more are read in place by the row kernel,
   which swaps each vector as it loads it (Zen 4, byte-swapped argmax, in
   place over through scratch: rows of 1000 float32 0.52x the time, 512
   0.59x, 256 0.89x, 128 1.6x; float16 rows of 1000 0.70x). */
#define SWAP_ROW_BYTES 8192
#define SWAP_IN_PLACE_ROW_BYTES 1024

/* Bytes of each row a column fold takes per block. Up to FEW_ROWS rows fold
   long runs of each row (the best keys stay in L2): DRAM serves a few long
   streams better than many short ones (AMD Zen 4, one thread, share of the
   read bandwidth: (4, 21, 512, 512) float32 over axis 1 with runs of 8 KiB
   47%, 64 KiB 64%, 256 KiB 75%; (300, 65536) float32 over axis 0 with runs
   of 16 KiB 52%, 256 KiB 75%). Over more rows each block is one long pass,
   whose best keys and the rows' next pieces share L1; but where the
   kernel folds long runs without asking ahead (cols_unasked: past the
   cache, on Intel at avx512) they stay long: Intel Xeon, 1 GiB float32
   (4096, 65536) over axis 0, one thread, 1.50x (9.9 -> 14.8 GB/s), two
   threads 1.67x, float64 1.74x, int8 1.23x; (16384, 16384) 1.86x. */
#define COL_BLOCK_BYTES_FEW_ROWS ARGEXT_FOLD_ROW_BYTES
#define COL_BLOCK_BYTES 16384
#define FEW_ROWS 1024
/* Folds whose int64 indices (written in order, each once) fill this many
   bytes or more let the kernel write them by non-temporal stores (the
   kernel's `stream`), as dense short rows do from 1 MiB of indices: they
   leave the cache to the input. Their blocks start where the output falls
   on a line. */
#define STREAM_OUT_BYTES (1 << 20)
/* Rows per many-rows kernel call (at most ARGEXT_FOLD_COLS, the scratch's
   indices): their indices stay in L1. */
#define ROWS_BATCH 4096

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* Writes base + idx[j] * weight, j < n, as the n outputs from out (byte
   step `step`): the output type chosen once, not per index. */
static void store_indices(char *out, int64_t step, argext_dtype dt, const int64_t *idx, int64_t n,
                          int64_t base, int64_t weight)
{
#define STORE_AS(T)                                   \
    for (int64_t j = 0; j < n; j++) {                 \
        T x = (T)(base + idx[j] * weight);            \
        memcpy(out + j * step, &x, sizeof x);         \
    }
    switch (dt) {
    case ARGEXT_INT32:
        STORE_AS(int32_t)
        break;
    case ARGEXT_UINT32:
        STORE_AS(uint32_t)
        break;
    case ARGEXT_UINT64:
        STORE_AS(uint64_t)
        break;
    default:
        STORE_AS(int64_t)
        break;
    }
#undef STORE_AS
}

/* Writes a flat index into an index output. */
static void store_index(char *p, argext_dtype dt, int64_t v) { store_indices(p, 0, dt, &v, 1, 0, 1); }

static int compare_key(argext_dtype dt, const void *a, const void *b);

/* The row kernel over n elements of the axis at q: the index of the new
   best, or -1. A reversed axis (negative stride) is scanned forward from
   its far end, where the kernels read vectors, and the index mapped back
   (n-1-j); the far end's first occurrence is the row's last, so the scan
   asks for the other one. Its own best then meets the incoming one as the
   forward scan would have: all its indices come after it. */
static int64_t scan_axis(const argext_plan *p, const char *q, int64_t n, int init, void *key)
{
    const int64_t s = p->axis.in_stride;
    if (s >= 0)
        return p->row(q, n, s, p->last, init, key);
    int64_t k = 0;
    int64_t j = p->row(q + (n - 1) * s, n, -s, !p->last, 1, &k);
    if (!init) {
        int c = compare_key(p->dtype, &k, key);
        if (c < 0 || (c == 0 && !p->last))
            return -1;
    }
    memcpy(key, &k, sizeof k);
    return n - 1 - j;
}

/* Elements [e0, e1) of the row at q, numbered row-major over the reduced
   dimensions; returns the flat index of the new best, or -1. */
static int64_t fold_row(const argext_plan *p, const char *q, int64_t e0, int64_t e1, int init,
                        void *key)
{
    int64_t best_index = -1, an = p->axis.n, i0 = e0 % an;
    argext_iter outer;
    argext_iter_seek(&outer, p->nr, p->reduced, e0 / an);
    while (e0 < e1) {
        int64_t i1 = min64(an, i0 + (e1 - e0));
        int64_t i = scan_axis(p, q + outer.in + i0 * p->axis.in_stride, i1 - i0, init, key);
        if (i >= 0)
            best_index = outer.out + (i0 + i) * p->axis.out_step;
        init = 0;
        e0 += i1 - i0;
        i0 = 0;
        if (!argext_iter_next(&outer))
            break;
    }
    return best_index;
}

/* bn columns at q folded over the axis into s->keys and idx. A reversed
   axis (negative stride), the only one reduced, is folded from its far end
   in address order, the ascending streams the prefetchers follow: its rows
   numbered down from f0 + (n - 1) * weight, the other occurrence asked for
   (the far end's first is the row's last). Zen 3, avx2, reversed over axis
   0 against the descending fold: float32 (65536, 256) first 1.6-1.8x, last
   1.5x; int8 (8192, 4096) last 1.8-2.2x, first (the last in address order,
   whose ties the kernel's row pairs absorb) at its forward view's time. */
static void fold_cols(const argext_plan *p, const char *q, int64_t bn, int64_t f0, int init,
                      int stream, int64_t *idx, argext_engine_scratch *s)
{
    const int64_t n = p->axis.n;
    int64_t rs = p->axis.in_stride, weight = p->axis.out_step;
    int last = p->last;
    if (rs < 0 && p->nr == 0) {
        q += (n - 1) * rs;
        f0 += (n - 1) * weight;
        rs = -rs;
        weight = -weight;
        last = !last;
    }
    if (!p->swapped) {
        p->cols(q, n, rs, weight, bn, p->inner.in_stride, f0, last, init, stream, s->keys, idx,
                s->row_of);
        return;
    }
    /* byte-swapped: read in place where the kernel can, else through scratch */
    if (p->cols_swapped(q, n, rs, weight, bn, p->inner.in_stride, f0, last, init, stream, s->keys,
                        idx, s->row_of))
        return;
    int64_t row_bytes = bn * (int64_t)p->itemsize, chunk = ARGEXT_SWAP_BYTES / row_bytes;
    chunk = chunk > 0 ? chunk : 1;
    for (int64_t r0 = 0; r0 < n; r0 += chunk) {
        int64_t m = min64(chunk, n - r0);
        p->swap(s->swap, q + r0 * rs, m, rs, bn, p->inner.in_stride, (int)p->itemsize, m * rs);
        p->cols((const char *)s->swap, m, row_bytes, weight, bn, (int64_t)p->itemsize,
                f0 + r0 * weight, last, init && r0 == 0, stream && m == n, s->keys, idx,
                s->row_of);
    }
}

/* The first block's columns: it ends where the input's vectors fall on cache
   lines (NumPy's large arrays start 16 bytes past one), so that the blocks
   after it read every vector from one line instead of two; rows under 2 KiB
   are not worth a second pass, nor folds in long runs from DRAM, where a
   narrow first pass is a walk over every row (Intel Xeon, (16384, 16384)
   float32 over axis 0: 1.60x without it). */
static int64_t first_block(const argext_plan *p, const char *q, int64_t block, int64_t n,
                           int long_runs)
{
    const int64_t w = (int64_t)p->itemsize, off = (int64_t)((uintptr_t)q % 64);
    if (p->inner.in_stride != w || off % w != 0 || off == 0 || n * w < 2048 || long_runs)
        return block;
    /* one block: a narrow one (two vectors, the second on a line) first */
    return n < 2 * block ? (128 - off) / w : block - off / w;
}

/* Kept positions [j0, j1) of one inner run, folded a block of columns at a
   time. An int64 output in order takes the indices as the kernel writes
   them (no copy through scratch). */
static void run_columns(const argext_plan *p, const char *pin, char *pout, int64_t j0, int64_t j1,
                        argext_engine_scratch *s)
{
    const argext_dim *inner = &p->inner;
    int64_t rows = p->axis.n;
    for (int d = 0; d < p->nr; d++)
        rows = rows > FEW_ROWS ? rows : rows * p->reduced[d].n;
    const int64_t long_block = min64(ARGEXT_FOLD_COLS, COL_BLOCK_BYTES_FEW_ROWS / (int64_t)p->itemsize);
    const int long_runs = inner->in_stride == (int64_t)p->itemsize &&
                          p->cols_unasked(p->axis.n, p->axis.in_stride, min64(long_block, j1 - j0));
    const int64_t block = rows > FEW_ROWS && !long_runs
                              ? min64(ARGEXT_FOLD_COLS, COL_BLOCK_BYTES / (int64_t)p->itemsize)
                              : long_block;
    /* one fold call per block (no other reduced dimension, no hook reading
       the indices back) into a large int64 output in order */
    char *o0 = pout + j0 * inner->out_step;
    const int stream = p->out_dtype == ARGEXT_INT64 &&
                       inner->out_step == (int64_t)sizeof(int64_t) && (uintptr_t)o0 % 8 == 0 &&
                       p->nr == 0 && !p->written &&
                       p->positions >= STREAM_OUT_BYTES / (int64_t)sizeof(int64_t);
    int64_t bn = stream ? block - (int64_t)((uintptr_t)o0 % 64) / 8
                        : first_block(p, pin + j0 * inner->in_stride, block, j1 - j0, long_runs);
    for (int64_t jb = j0; jb < j1; jb += bn, bn = block) {
        bn = min64(bn, j1 - jb);
        const char *q = pin + jb * inner->in_stride;
        char *o = pout + jb * inner->out_step;
        int direct = p->out_dtype == ARGEXT_INT64 && inner->out_step == (int64_t)sizeof(int64_t) &&
                     (uintptr_t)o % sizeof(int64_t) == 0;
        int64_t *idx = direct ? (int64_t *)(void *)o : s->idx;
        int init = 1;
        argext_iter outer;
        argext_iter_seek(&outer, p->nr, p->reduced, 0);
        do {
            fold_cols(p, q + outer.in, bn, outer.out + (direct ? p->flat0 : 0), init,
                      stream && direct, idx, s);
            init = 0;
        } while (argext_iter_next(&outer));
        if (!direct)
            store_indices(o, inner->out_step, p->out_dtype, s->idx, bn, p->flat0, 1);
    }
}

/* Rows per many-rows kernel call where a NaN-skipping plan tests each
   row's best element after it (nan_check): at least NAN_CHECK_ROWS rows and
   NAN_CHECK_BYTES of them, so that they are still in L1 or L2 then. Larger
   batches measured slower, for rows of 16 and of 1000 alike. */
#define NAN_CHECK_BYTES 4096
#define NAN_CHECK_ROWS 8

/* Whether the element of any of count rows (row k at q + k * ps, native
   byte order) at its index idx[k] (byte stride s) is a NaN. */
static int any_nan_at(argext_dtype dt, const char *q, int64_t count, int64_t ps, int64_t s,
                      const int64_t *idx)
{
    int nan = 0;
#define NAN_AT(ENUM, NAME, ET, KT, KMAX, ...)                    \
    case ARGEXT_##ENUM:                                          \
        for (int64_t k = 0; k < count; k++) {                    \
            ET b;                                                \
            memcpy(&b, q + k * ps + idx[k] * s, sizeof b);       \
            nan |= argext_is_nan_##NAME(b);                      \
        }                                                        \
        break;
    switch (dt) {
    ARGEXT_DTYPES(NAN_AT)
    default:
        break;
    }
#undef NAN_AT
    return nan;
}

/* count whole rows of the axis (row k at q + k * ps) into idx by the
   many-rows kernel; reversed rows as scan_axis takes them. Byte-swapped rows
   (row_bytes each) are swapped into scratch first. Returns, for a plan with
   nan_check, whether some row's element at its index is a NaN (tested while
   the rows are in cache), else 0. */
static int scan_rows(const argext_plan *p, const char *q, int64_t count, int64_t ps,
                     int64_t *idx, argext_engine_scratch *s)
{
    const int64_t n = p->axis.n;
    const int rev = p->axis.in_stride < 0;
    const int64_t stride = rev ? -p->axis.in_stride : p->axis.in_stride;
    int nan = 0;
    q += rev ? (n - 1) * p->axis.in_stride : 0;
    if (p->swapped) {
        const int64_t row_bytes = n * (int64_t)p->itemsize;
        p->swap(s->swap, q, count, ps, n, stride, (int)p->itemsize, count * ps);
        p->rows((const char *)s->swap, count, row_bytes, n, (int64_t)p->itemsize,
                p->last ^ rev, idx);
        if (p->nan_check)
            nan = any_nan_at(p->dtype, (const char *)s->swap, count, row_bytes,
                             (int64_t)p->itemsize, idx);
    } else {
        p->rows(q, count, ps, n, stride, p->last ^ rev, idx);
        if (p->nan_check)
            nan = any_nan_at(p->dtype, q, count, ps, stride, idx);
    }
    if (rev)
        for (int64_t k = 0; k < count; k++)
            idx[k] = n - 1 - idx[k];
    return nan;
}

/* Rows per many-rows kernel call of a NaN-skipping plan (nan_check), at
   most `batch`: their elements are tested while in cache. */
static int64_t nan_check_batch(const argext_plan *p, int64_t batch)
{
    if (!p->nan_check)
        return batch;
    int64_t span = p->axis.n * (p->axis.in_stride < 0 ? -p->axis.in_stride : p->axis.in_stride);
    int64_t rows = span > 0 ? NAN_CHECK_BYTES / span : batch;
    rows = rows > NAN_CHECK_ROWS ? rows : NAN_CHECK_ROWS;
    return min64(rows, batch);
}

/* Kept positions [j0, j1) of one inner run whose rows are one reduced run
   each: whole rows in batches, no per-row call. Returns scan_rows's NaN
   test of them. */
static int run_short_rows(const argext_plan *p, const char *pin, char *pout, int64_t j0,
                          int64_t j1, argext_engine_scratch *s)
{
    const argext_dim *inner = &p->inner;
    int64_t row_bytes = p->axis.n * (int64_t)p->itemsize;
    int64_t batch = p->swapped ? SWAP_ROW_BYTES / row_bytes : ROWS_BATCH;
    batch = nan_check_batch(p, min64(batch, ROWS_BATCH));
    int nan = 0;
    for (int64_t jb = j0; jb < j1; jb += batch) {
        int64_t bn = min64(batch, j1 - jb);
        nan |= scan_rows(p, pin + jb * inner->in_stride, bn, inner->in_stride, s->idx, s);
        store_indices(pout + jb * inner->out_step, inner->out_step, p->out_dtype, s->idx, bn,
                      p->flat0, p->axis.out_step);
    }
    return nan;
}

/* Kept positions [j0, j1) of one inner run; returns argext_plan_run's NaN
   answer for them. */
static int run_inner(const argext_plan *p, const char *pin, char *pout, int64_t j0, int64_t j1,
                     argext_engine_scratch *s)
{
    const argext_dim *inner = &p->inner;
    if (p->column_mode) {
        run_columns(p, pin, pout, j0, j1, s);
        return p->nan_check; /* not tested */
    }
    if (p->nr == 0 && !p->swapped && p->direct &&
        (uintptr_t)(pout + j0 * inner->out_step) % sizeof(int64_t) == 0) {
        /* the many-rows kernel writes the output itself; a NaN-skipping
           plan's rows in batches, each tested while in cache */
        const int64_t batch = nan_check_batch(p, j1 - j0);
        int nan = 0;
        for (int64_t jb = j0; jb < j1; jb += batch)
            nan |= scan_rows(p, pin + jb * inner->in_stride, min64(batch, j1 - jb),
                             inner->in_stride, (int64_t *)(void *)(pout + jb * inner->out_step), s);
        return nan;
    }
    if (p->nr == 0 && (!p->swapped || p->axis.n * (int64_t)p->itemsize < SWAP_IN_PLACE_ROW_BYTES))
        return run_short_rows(p, pin, pout, j0, j1, s);
    for (int64_t j = j0; j < j1; j++) {
        int64_t key;
        int64_t index = fold_row(p, pin + j * inner->in_stride, 0, p->count, 1, &key);
        store_index(pout + j * inner->out_step, p->out_dtype, p->flat0 + index);
    }
    return p->nan_check; /* not tested */
}

/* Kept positions [k0, k1): argext_plan_run without the hook. */
static int run_range(const argext_plan *p, int64_t k0, int64_t k1, argext_engine_scratch *s)
{
    int nan = 0;
    if (k0 >= k1)
        return nan;
    int64_t per = p->inner.n, j = k0 % per;
    argext_iter outer;
    argext_iter_seek(&outer, p->nk, p->kept, k0 / per);
    for (;;) {
        int64_t jb = min64(per, j + (k1 - k0));
        nan |= run_inner(p, p->in + outer.in, p->out + outer.out, j, jb, s);
        k0 += jb - j;
        j = 0;
        if (k0 >= k1 || !argext_iter_next(&outer))
            return nan;
    }
}

int argext_plan_run(const argext_plan *p, int64_t k0, int64_t k1, argext_engine_scratch *s)
{
    if (!p->written)
        return run_range(p, k0, k1, s);
    int nan = 0;
    for (int64_t b0 = k0; b0 < k1; b0 += p->block) {
        const int64_t b1 = min64(k1, b0 + p->block);
        nan |= run_range(p, b0, b1, s);
        p->written(p->written_context, p, b0, b1);
    }
    return nan;
}

int64_t argext_plan_row_part(const argext_plan *p, int64_t k, int64_t e0, int64_t e1, int init,
                             void *key)
{
    argext_iter outer;
    argext_iter_seek(&outer, p->nk, p->kept, k / p->inner.n);
    const char *q = p->in + outer.in + (k % p->inner.n) * p->inner.in_stride;
    return fold_row(p, q, e0, e1, init, key);
}

void argext_plan_store(const argext_plan *p, int64_t k, int64_t index)
{
    argext_iter outer;
    argext_iter_seek(&outer, p->nk, p->kept, k / p->inner.n);
    store_index(p->out + outer.out + (k % p->inner.n) * p->inner.out_step, p->out_dtype,
                p->flat0 + index);
}

/* compare_<dtype>(a, b): -1, 0 or 1 as key a is below, equal to or above key b. */
#define KEY_COMPARE(ENUM, NAME, ET, KT, KMAX, ...)                  \
    static int compare_##NAME(const void *a, const void *b)       \
    {                                                             \
        KT x, y;                                                  \
        memcpy(&x, a, sizeof x);                                  \
        memcpy(&y, b, sizeof y);                                  \
        return (x > y) - (x < y);                                 \
    }
ARGEXT_DTYPES(KEY_COMPARE)
#undef KEY_COMPARE

#define COMPARE_ENTRY(ENUM, NAME, ET, KT, KMAX, ...) [ARGEXT_##ENUM] = compare_##NAME,
static int (*const compare_keys[ARGEXT_DTYPE_COUNT])(const void *, const void *) = {
    ARGEXT_DTYPES(COMPARE_ENTRY)};
#undef COMPARE_ENTRY

static int compare_key(argext_dtype dt, const void *a, const void *b) { return compare_keys[dt](a, b); }

int argext_plan_better(const argext_plan *p, const void *key_a, int64_t a, const void *key_b,
                       int64_t b)
{
    int c = compare_key(p->dtype, key_a, key_b);
    if (c != 0)
        return c > 0;
    return p->last ? a > b : a < b;
}
