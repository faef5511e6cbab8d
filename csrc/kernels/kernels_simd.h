/*
 * kernels_simd.h - the one SIMD kernel template, included by each ISA file
 * (kernels_sse2.c, kernels_sse42.c, kernels_avx2.c, kernels_avx512.c on
 * x86-64; kernels_neon.c on AArch64) after it has defined:
 *
 *   vec, V_BYTES            the integer vector type and its size in bytes
 *   LANE_BITS(w)            bits per lane in a comparison mask (w: lane bytes)
 *   v_load, v_bswap, v_store, v_set1, v_xor, v_and, v_sub, v_sign, v_max, v_fext,
 *   v_sel_gt, v_gt, v_ge, v_eq, v_hext_within, v_lane0   (see kernels_avx2.c)
 *   vmask, v_gtm, v_gem, v_store_index     comparisons that select the
 *                                          int64 column indices to update
 *   HAS_STORE_ROW, v_store_row              1 and a masked byte store, or 0
 *   HAS_ACTIVE_LOAD, v_load_active, v_sel_active   1 and masked loads, or 0
 *   HAS_CMP64               1 if 64-bit lanes compare in one instruction
 *   fmask, v_fgt, v_fge, v_feq, v_funord, v_for, v_fany, v_fblend, v_fbits
 *                           float-lane compares for the float row scans
 *   FEXT_KEEPS_NAN, v_fext_num   optional (below): whether v_fext keeps NaN
 *   HAS_FILTER_SCAN, FILTER_SCAN(w, kind), and with it v_or, v_filter,
 *   v_filter_threshold, v_filter_any   row scans that test blocks against the
 *                           best instead of keeping lane maxima (simd_sse.h)
 *   v_prefetch(p)           a hint to fetch the cache line at p
 *   v_denormals_are_zero()  nonzero when float compares read denormal inputs
 *                           as zero (MXCSR.DAZ, FPCR.FZ), so v_fext cannot
 *                           order them
 *   ISA_TABLE               the name of the kernel table to define
 *
 * Each ISA file compiles its own code for its instruction set with a target
 * pragma (ISA_TARGET_BEGIN / ISA_TARGET_END in kernels.h), so the build needs
 * no per-file flags and one compile can target several architectures.
 *
 * Keys are those of dtypes.h, held as signed lanes of the element's width:
 * unsigned keys get their sign bit flipped, so one signed comparison orders
 * every dtype; the kernels' `best` buffers keep the dtypes.h key type.
 * Layouts not vectorised here (strided rows or columns, rows or column
 * blocks narrower than one vector) go to the baseline kernels, so results
 * are those of the baseline bit for bit.
 */
#include <string.h>

#include "kernels/dtypes.h"
#include "kernels/kernels.h"

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
VINLINE int ctz64(uint64_t x)
{
    unsigned long i;
    _BitScanForward64(&i, x);
    return (int)i;
}
VINLINE int msb64(uint64_t x)
{
    unsigned long i;
    _BitScanReverse64(&i, x);
    return (int)i;
}
#else
#define ctz64(x) __builtin_ctzll(x)
#define msb64(x) (63 - __builtin_clzll(x))
#endif

/* x86's maxps/minps (and their pd forms) return their second operand when
   either is NaN: a NaN in the first is dropped, so the float scans test for
   NaN themselves; v_fext_num (the extreme of x and a non-NaN y, y where x is
   NaN) is v_fext. An ISA whose maximum keeps NaN (NEON) defines both. */
#ifndef FEXT_KEEPS_NAN
#define FEXT_KEEPS_NAN 0
#define v_fext_num(w, is_min, x, y) v_fext(w, is_min, x, y)
#endif

/* Vectors per block of a contiguous row: the block's maximum is found
   first; the block is searched only when it beats the best so far. */
#define BLOCK_VECS 8

/* Blocks per branch-free chunk of a row scan (block indices fit int8 lanes). */
#define CHUNK_BLOCKS 64

/* Rows of a column fold updated without testing first (< 128: a row
   number fits a byte). */
#define DENSE_ROWS 32

/* Most columns whose dense-row numbers a column fold keeps in bytes. */
#define ROWBUF_COLS 4096

enum { KIND_SIGNED, KIND_UNSIGNED, KIND_FLOAT };

/* Largest and smallest signed value of a w-byte lane. */
#define SMAX(w) ((int64_t)((UINT64_C(1) << (8 * (w) - 1)) - 1))
#define SMIN(w) (-SMAX(w) - 1)

/* The key maximum (the float extreme) of each group of `bytes` bytes, in
   every lane of the group; v_hmax: of the whole vector. */
#define v_hmax_within(w, x, bytes) v_hext_within(w, x, bytes, 0, 0)
#define v_fhmax_within(w, is_min, x, bytes) v_hext_within(w, x, bytes, 1, is_min)
#define v_hmax(w, x) v_hmax_within(w, x, V_BYTES)

/* Keys of the lanes of v; see dtypes.h. */
VINLINE vec v_keys(vec v, int w, int op, int kind, int64_t inf)
{
    if (kind == KIND_FLOAT) {
        vec m = v_and(v, v_set1(w, SMAX(w)));
        vec s = v_sign(w, v);
        vec k = v_sub(w, v_xor(m, s), s);
        if (ARGEXT_OP_IS_MIN(op))
            k = v_xor(k, v_set1(w, -1));
        int64_t nan_key = !ARGEXT_OP_SKIPS_NAN(op) ? SMAX(w)       /* NaN wins */
                          : ARGEXT_OP_IS_MIN(op)      ? ~inf : -inf; /* NaN as +-inf */
        return v_sel_gt(w, m, v_set1(w, inf), k, v_set1(w, nan_key));
    }
    int64_t flip = (ARGEXT_OP_IS_MIN(op) ? -1 : 0) ^ (kind == KIND_UNSIGNED ? SMIN(w) : 0);
    return flip ? v_xor(v, v_set1(w, flip)) : v;
}

/* A w-byte key of the dtypes.h key type <-> its signed lane value. */
VINLINE int64_t key_to_lane(const void *key, int w, int kind)
{
    uint64_t u = 0;
    memcpy(&u, key, (size_t)w);
    if (kind == KIND_UNSIGNED)
        u ^= UINT64_C(1) << (8 * w - 1);
    int sh = 64 - 8 * w;
    return sh ? (int64_t)(u << sh) >> sh : (int64_t)u;
}

VINLINE void lane_to_key(int64_t lane, void *key, int w, int kind)
{
    uint64_t u = (uint64_t)lane;
    if (kind == KIND_UNSIGNED)
        u ^= UINT64_C(1) << (8 * w - 1);
    memcpy(key, &u, (size_t)w);
}

/* The vector at q in native order: a row scan reads input of the opposite
   byte order (sw) in place, swapping each vector as it loads it. */
VINLINE vec v_load_row(const char *q, int w, int sw) { return sw ? v_bswap(w, v_load(q)) : v_load(q); }

/* Bytes ahead of a row scan that it asks memory for, a block at a time
   (more lines in flight than the hardware prefetcher keeps); dense short
   rows ask a row or a vector at a time. The address may lie past the
   input: it is formed as an integer. */
#define PREFETCH_AHEAD 2048
VINLINE void prefetch_ahead(const char *q, int64_t bytes)
{
    for (int64_t l = 0; l < bytes; l += 64)
        v_prefetch((const char *)((uintptr_t)q + PREFETCH_AHEAD + (uintptr_t)l));
}
#define prefetch_block(q) prefetch_ahead(q, BLOCK_VECS * V_BYTES)

/* Key maximum, per lane, of the BLOCK_VECS vectors at q (four in flight). */
VINLINE vec block_max(const char *q, int w, int op, int kind, int64_t inf, int sw)
{
    vec a[4];
    prefetch_block(q);
    for (int k = 0; k < 4; k++)
        a[k] = v_keys(v_load_row(q + k * V_BYTES, w, sw), w, op, kind, inf);
    for (int k = 4; k < BLOCK_VECS; k++)
        a[k % 4] = v_max(w, a[k % 4], v_keys(v_load_row(q + k * V_BYTES, w, sw), w, op, kind, inf));
    return v_max(w, v_max(w, a[0], a[1]), v_max(w, a[2], a[3]));
}

/* The running best of a row scan, as a signed lane value. */
typedef struct {
    int64_t best, bi;
    vec bestv;
    int force; /* the first block of a new row always sets the best */
} row_state;

/*
 * Folds a block (nv vectors at q, elements from `start`) whose key maximum
 * is acc into st; returns 1 once nothing can beat the best (first
 * occurrence of the key maximum: NaN, or the integer extreme).
 */
VINLINE int row_block(row_state *st, const char *q, int64_t start, int64_t nv, vec acc,
                            int last, int w, int op, int kind, int64_t inf, int sw)
{
    const int64_t lanes = V_BYTES / w;
    int64_t m;
    if (st->force || v_gt(w, acc, st->bestv))
        m = v_lane0(w, v_hmax(w, acc));
    else if (last && v_eq(w, acc, st->bestv))
        m = st->best;
    else
        return 0;
    vec mv = v_set1(w, m);
    int64_t j = -1;
    if (last) {
        for (int64_t k = nv - 1; k >= 0 && j < 0; k--) {
            uint64_t e = v_eq(w, v_keys(v_load_row(q + k * V_BYTES, w, sw), w, op, kind, inf), mv);
            if (e)
                j = k * lanes + msb64(e) / LANE_BITS(w);
        }
    } else {
        for (int64_t k = 0; k < nv && j < 0; k++) {
            uint64_t e = v_eq(w, v_keys(v_load_row(q + k * V_BYTES, w, sw), w, op, kind, inf), mv);
            if (e)
                j = k * lanes + ctz64(e) / LANE_BITS(w);
        }
    }
    st->bi = start + j;
    st->best = m;
    st->bestv = mv;
    st->force = 0;
    return !last && m == SMAX(w);
}

/* Whether float32/float64 compare as floats: not where denormals are read
   as zero. Asked once per kernel call: reading the FP control register is
   slow. */
VINLINE int float_compares(int w, int kind)
{
    return kind == KIND_FLOAT && w >= 4 && !v_denormals_are_zero();
}

/* Whether rows of n elements scan their chunks as floats (chunk_floats):
   rows long enough for a block. */
VINLINE int native_blocks(int w, int kind, int64_t n)
{
    return n >= (V_BYTES / w) * BLOCK_VECS && float_compares(w, kind);
}

/* Float lanes at q as the float scans compare them: the NaN-skipping
   operators read a NaN as the infinity that never wins (-inf for
   nanargmax, +inf for nanargmin), as their keys do (dtypes.h). */
VINLINE vec v_load_floats(const char *q, int w, int op, int64_t inf, int sw)
{
    const int is_min = ARGEXT_OP_IS_MIN(op);
    const vec loser = v_set1(w, is_min ? inf : (int64_t)((uint64_t)inf | (UINT64_C(1) << (8 * w - 1))));
    vec x = v_load_row(q, w, sw);
    return ARGEXT_OP_SKIPS_NAN(op) ? v_fext_num(w, is_min, x, loser) : x;
}

/* A chunk of nb blocks at q0 in keys: per lane, the key maximum (*maxv) and
   the first (last) block reaching it (*bidx). */
VINLINE void chunk_keys(const char *q0, int64_t nb, int last, vec *maxv, vec *bidx, int w,
                        int op, int kind, int64_t inf, int sw)
{
    const int64_t block = (V_BYTES / w) * BLOCK_VECS;
    vec m = block_max(q0, w, op, kind, inf, sw), bi = v_set1(w, 0);
    for (int64_t b = 1; b < nb; b++) {
        vec acc = block_max(q0 + b * block * w, w, op, kind, inf, sw), cur = v_set1(w, b);
        bi = last ? v_sel_gt(w, m, acc, cur, bi) : v_sel_gt(w, acc, m, bi, cur);
        m = v_max(w, m, acc);
    }
    *maxv = m;
    *bidx = bi;
}

/* The same for float32/float64 by float compares, which take fewer
   instructions than keys: the float extreme is keyed once, at the end (the
   key is monotone, and -0.0 and +0.0 compare equal in both). Returns 0, with
   nothing set, when the chunk holds a NaN: chunk_keys then ranks it. The
   NaN-skipping operators read a NaN as the infinity that never wins (their
   key, dtypes.h), so their chunks need no NaN test. */
VINLINE int chunk_floats(const char *q0, int64_t nb, int last, vec *maxv, vec *bidx, int w,
                         int op, int kind, int64_t inf, int sw)
{
    const int64_t block = (V_BYTES / w) * BLOCK_VECS;
    const int is_min = ARGEXT_OP_IS_MIN(op), skips_nan = ARGEXT_OP_SKIPS_NAN(op);
    const vec minus_one = v_set1(w, -1);
    vec ext = v_set1(w, 0), bi = v_set1(w, 0), cur = v_set1(w, 0);
    fmask nan = v_fgt(w, ext, ext); /* none */
#define LOAD_FLOATS(x, at)                                                                 \
    for (int j = 0; j < 4; j++)                                                            \
        x[j] = v_load_floats(at + j * V_BYTES, w, op, inf, sw);                            \
    if (!skips_nan && !FEXT_KEEPS_NAN)                                                     \
        nan = v_for(nan, v_for(v_funord(w, x[0], x[1]), v_funord(w, x[2], x[3])));
    for (int64_t b = 0; b < nb; b++) {
        const char *q = q0 + b * block * w;
        vec e[4];
        prefetch_block(q);
        LOAD_FLOATS(e, q)
        for (int k = 4; k < BLOCK_VECS; k += 4) {
            vec x[4];
            LOAD_FLOATS(x, q + k * V_BYTES)
            for (int j = 0; j < 4; j++)
                e[j] = v_fext(w, is_min, e[j], x[j]);
        }
        vec acc = v_fext(w, is_min, v_fext(w, is_min, e[0], e[1]), v_fext(w, is_min, e[2], e[3]));
        if (b == 0) {
            ext = acc;
        } else {
            fmask better = last ? (is_min ? v_fge(w, ext, acc) : v_fge(w, acc, ext))
                                : (is_min ? v_fgt(w, ext, acc) : v_fgt(w, acc, ext));
            bi = v_fblend(w, better, bi, cur);
            ext = v_fext(w, is_min, ext, acc);
        }
        cur = v_sub(w, cur, minus_one);
    }
#undef LOAD_FLOATS
    if (FEXT_KEEPS_NAN && !skips_nan)
        nan = v_funord(w, ext, ext);
    if (v_fany(nan))
        return 0;
    *maxv = v_keys(ext, w, op, kind, inf);
    *bidx = bi;
    return 1;
}

#if HAS_FILTER_SCAN
/* Whether the block at q may hold a key above the best (last: not below),
   thr being v_filter_threshold's for that best. */
VINLINE int filter_block(const char *q, vec thr, int w, int op, int kind, int64_t inf, int sw)
{
    prefetch_block(q);
    vec any = v_filter(w, v_keys(v_load_row(q, w, sw), w, op, kind, inf), thr);
    for (int k = 1; k < BLOCK_VECS; k++)
        any = v_or(any, v_filter(w, v_keys(v_load_row(q + k * V_BYTES, w, sw), w, op, kind, inf), thr));
    return v_filter_any(w, any);
}
#endif

/*
 * One contiguous row of n >= V_BYTES / w elements.
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
VINLINE int64_t row_simd(const char *p, int64_t n, int last, int init, int64_t *bestp,
                               int w, int op, int kind, int64_t inf, int native, int sw)
{
    const int64_t lanes = V_BYTES / w, block = lanes * BLOCK_VECS;
    row_state st = {init ? SMIN(w) : *bestp, -1, v_set1(w, init ? SMIN(w) : *bestp), init};
    const vec none = v_set1(w, -1);
    int64_t i = 0;
#if HAS_FILTER_SCAN
    vec thr = none;
    int64_t thr_best = st.best;
    int filtered = 0; /* thr is for thr_best; st.force is set until a first best */
    if (FILTER_SCAN(w, kind) && !st.force)
        filtered = v_filter_threshold(w, st.best, last, &thr);
#endif
#define KEYS_AT(q, k) v_keys(v_load_row((q) + (k) * V_BYTES, w, sw), w, op, kind, inf)
    /* A load across two cache lines costs two: a long row not on a vector
       boundary takes its first vector alone, then goes on from the first
       boundary (re-reading a few elements, as the last vector does). */
    const int64_t misaligned = (int64_t)((uintptr_t)p % V_BYTES);
    if (misaligned && misaligned % w == 0 && n >= 2 * block) {
        if (row_block(&st, p, 0, 1, KEYS_AT(p, 0), last, w, op, kind, inf, sw))
            goto done;
        i = (V_BYTES - misaligned) / w;
    }
    while (i + block <= n) {
        const char *q0 = p + i * w;
#if HAS_FILTER_SCAN
        if (FILTER_SCAN(w, kind)) { /* a row's first block sets the best */
            if (!st.force && thr_best != st.best) { /* a new best: a new threshold */
                thr_best = st.best;
                filtered = v_filter_threshold(w, st.best, last, &thr);
            }
            if ((st.force || !filtered || filter_block(q0, thr, w, op, kind, inf, sw)) &&
                row_block(&st, q0, i, BLOCK_VECS, block_max(q0, w, op, kind, inf, sw), last, w,
                          op, kind, inf, sw))
                goto done;
            i += block;
            continue;
        }
#endif
        int64_t nb = (n - i) / block < CHUNK_BLOCKS ? (n - i) / block : CHUNK_BLOCKS;
        vec maxv, bidx;
        if (!native || !chunk_floats(q0, nb, last, &maxv, &bidx, w, op, kind, inf, sw))
            chunk_keys(q0, nb, last, &maxv, &bidx, w, op, kind, inf, sw);
        int64_t m = v_lane0(w, v_hmax(w, maxv));
        if (st.force || m > st.best || (last && m == st.best)) {
            vec mv = v_set1(w, m);
            /* Lanes below m drop out: first takes the smallest block index
               (as the largest complement), last the largest. */
            int64_t found = last ? v_lane0(w, v_hmax(w, v_sel_gt(w, mv, maxv, bidx, none)))
                                 : ~v_lane0(w, v_hmax(w, v_sel_gt(w, mv, maxv, v_xor(bidx, none),
                                                                   v_set1(w, SMIN(w)))));
            st.force = 1; /* the block holds m: find it there */
            if (row_block(&st, q0 + found * block * w, i + found * block, BLOCK_VECS, mv, last,
                          w, op, kind, inf, sw))
                goto done;
        }
        i += nb * block;
    }
    if (i + lanes <= n) {
        const char *q = p + i * w;
        int64_t nv = (n - i) / lanes;
        vec acc = KEYS_AT(q, 0);
        for (int64_t k = 1; k < nv; k++)
            acc = v_max(w, acc, KEYS_AT(q, k));
        if (row_block(&st, q, i, nv, acc, last, w, op, kind, inf, sw))
            goto done;
        i += nv * lanes;
    }
    if (i < n) {
        const char *q = p + (n - lanes) * w;
        row_block(&st, q, n - lanes, 1, KEYS_AT(q, 0), last, w, op, kind, inf, sw);
    }
#undef KEYS_AT
done:
    *bestp = st.best;
    return st.bi;
}

#if HAS_ACTIVE_LOAD
/* A whole contiguous row of 1 <= n < V_BYTES / w elements, in one masked
   vector whose lanes outside the row hold the lowest key. */
VINLINE int64_t row_short(const char *p, int64_t n, int last, int w, int op, int kind,
                                int64_t inf)
{
    const uint64_t active = (UINT64_C(1) << n) - 1;
    vec k = v_sel_active(w, active, v_keys(v_load_active(w, p, active), w, op, kind, inf),
                         v_set1(w, SMIN(w)));
    int group = w;
    while (group < n * w)
        group *= 2; /* the lanes past the row hold the lowest key: skip them */
    uint64_t e = v_eq(w, k, v_hmax_within(w, k, group)) & active;
    return last ? msb64(e) : ctz64(e);
}
#endif

/* Most elements of a row the dense short-row kernel takes. */
#define DENSE_ROW_MAX 64

/* Vectors of a dense row of DENSE_ROW_MAX elements of the widest type. */
#define DENSE_ROW_VECS (DENSE_ROW_MAX * 8 / V_BYTES)

/* A dense row of nv vectors at q in keys: per vector, the lanes equal to
   the row's key maximum, as v_eq bits. */
VINLINE void dense_row_keys(const char *q, int64_t nv, uint64_t *bits, int w, int op, int kind,
                            int64_t inf)
{
    vec key[DENSE_ROW_VECS] = {v_set1(1, 0)}; /* set in full: no maybe-uninitialized */
    key[0] = v_keys(v_load(q), w, op, kind, inf);
    vec acc = key[0];
    for (int64_t v = 1; v < nv; v++) {
        key[v] = v_keys(v_load(q + v * V_BYTES), w, op, kind, inf);
        acc = v_max(w, acc, key[v]);
    }
    const vec m = v_hmax(w, acc);
    for (int64_t v = 0; v < nv; v++)
        bits[v] = v_eq(w, key[v], m);
}

/* The same for float32/float64 by float compares (fewer instructions than
   keys; -0.0 equals +0.0 in both). Returns 0, with nothing set, when the
   row holds a NaN: dense_row_keys then ranks it. The NaN-skipping operators
   read a NaN as the infinity that never wins, as their keys do. */
VINLINE int dense_row_floats(const char *q, int64_t nv, uint64_t *bits, int w, int op, int64_t inf)
{
    const int is_min = ARGEXT_OP_IS_MIN(op), skips_nan = ARGEXT_OP_SKIPS_NAN(op);
    vec x[DENSE_ROW_VECS] = {v_set1(1, 0)};
    for (int64_t v = 0; v < nv; v++)
        x[v] = v_load_floats(q + v * V_BYTES, w, op, inf, 0);
    vec e[2] = {x[0], x[1]}; /* nv >= 2; two chains in flight */
    fmask nan = v_funord(w, x[0], x[1]);
    for (int64_t v = 2; v < nv; v += 2) {
        e[0] = v_fext(w, is_min, e[0], x[v]);
        e[1] = v_fext(w, is_min, e[1], x[v + 1]);
        nan = v_for(nan, v_funord(w, x[v], x[v + 1]));
    }
    if (!skips_nan && v_fany(nan))
        return 0;
    const vec m = v_fhmax_within(w, is_min, v_fext(w, is_min, e[0], e[1]), V_BYTES);
    for (int64_t v = 0; v < nv; v++)
        bits[v] = v_fbits(v_feq(w, x[v], m));
    return 1;
}

/* Dense rows of nv >= 2 vectors each (nv even; a constant where it is
   called, so that the loops over the vectors unroll and stay in registers). */
VINLINE void rows_dense_wide(const char *p, int64_t count, int64_t nv, int last, int64_t *idx, int w,
                             int op, int kind, int64_t inf, int floats)
{
    const int64_t row_bytes = nv * V_BYTES, lb = LANE_BITS(w), lanes = V_BYTES / w, vec_bits = lanes * lb;
    for (int64_t k = 0; k < count; k++) {
        const char *q = p + k * row_bytes;
        uint64_t bits[DENSE_ROW_VECS];
        prefetch_ahead(q, row_bytes);
        if (!floats || !dense_row_floats(q, nv, bits, w, op, inf))
            dense_row_keys(q, nv, bits, w, op, kind, inf);
        if (nv * vec_bits <= 64) { /* every vector's bits in one word: no branch to mispredict */
            uint64_t e = 0;
            for (int64_t v = 0; v < nv; v++)
                e |= bits[v] << (v * vec_bits);
            idx[k] = (last ? msb64(e) : ctz64(e)) / lb;
            continue;
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
            idx[k] = bit / lb;
            continue;
        }
        for (int64_t j = 0; j < nv; j++) {
            int64_t v = last ? nv - 1 - j : j;
            if (bits[v]) {
                idx[k] = v * lanes + (last ? msb64(bits[v]) : ctz64(bits[v])) / lb;
                break;
            }
        }
    }
}

/* Rows of `bytes` bytes packed in the vector at q, by float compares: the
   lanes equal to their row's extreme, as v_fbits; 0, with nothing set, when
   a row holds a NaN (dense_row_floats' rules). */
VINLINE int packed_rows_floats(const char *q, int bytes, uint64_t *e, int w, int op, int64_t inf)
{
    const int is_min = ARGEXT_OP_IS_MIN(op);
    vec x = v_load_floats(q, w, op, inf, 0);
    if (!ARGEXT_OP_SKIPS_NAN(op) && v_fany(v_funord(w, x, x)))
        return 0;
    *e = v_fbits(v_feq(w, x, v_fhmax_within(w, is_min, x, bytes)));
    return 1;
}

/*
 * Rows of n elements back to back, n a power of two from 2 to DENSE_ROW_MAX.
 * Rows no wider than a vector go V_BYTES / (n * w) to a vector: the maximum
 * of each row's lanes (v_hmax_within over its bytes) is compared back, and
 * each row's bits of the result name its index. Wider rows take the maximum
 * of their vectors, then look for it. float32/float64 (floats) compare as
 * floats, and rows holding a NaN by keys. Returns how many rows it did (whole
 * vectors' worth); the caller does the rest.
 */
VINLINE int64_t rows_dense(const char *p, int64_t count, int64_t n, int last, int64_t *idx, int w,
                           int op, int kind, int64_t inf, int floats)
{
    const int64_t row_bytes = n * w, lb = LANE_BITS(w);
    if (row_bytes <= V_BYTES) {
        const int64_t per_vec = V_BYTES / row_bytes;
        const uint64_t row_bits = n * lb >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << (n * lb)) - 1;
        int64_t k = 0;
        for (; k + per_vec <= count; k += per_vec) {
            uint64_t e;
            prefetch_ahead(p + k * row_bytes, V_BYTES);
            if (!floats || !packed_rows_floats(p + k * row_bytes, (int)row_bytes, &e, w, op, inf)) {
                vec x = v_keys(v_load(p + k * row_bytes), w, op, kind, inf);
                e = v_eq(w, x, v_hmax_within(w, x, (int)row_bytes));
            }
            for (int64_t r = 0; r < per_vec; r++) {
                uint64_t b = (e >> (r * n * lb)) & row_bits;
                idx[k + r] = (last ? msb64(b) : ctz64(b)) / lb;
            }
        }
        return k;
    }
    switch (row_bytes / V_BYTES) { /* rows of 16 float32/float64 and the like unroll */
    case 2: rows_dense_wide(p, count, 2, last, idx, w, op, kind, inf, floats); break;
    case 4: rows_dense_wide(p, count, 4, last, idx, w, op, kind, inf, floats); break;
    case 8: rows_dense_wide(p, count, 8, last, idx, w, op, kind, inf, floats); break;
    case 16: rows_dense_wide(p, count, 16, last, idx, w, op, kind, inf, floats); break;
    default: rows_dense_wide(p, count, row_bytes / V_BYTES, last, idx, w, op, kind, inf, floats); break;
    }
    return count;
}

/*
 * bn >= V_BYTES / w contiguous columns folded over `rows` rows. The first
 * DENSE_ROWS rows update most columns of random data, so they store without
 * a (mispredicted) test; later rows store only where a column improves.
 * The last vector of a row may overlap the one before it (idempotent: a
 * column updated twice by the same row gets the same key and index).
 */
VINLINE void cols_simd(const char *p, int64_t rows, int64_t rs, int64_t fw, int64_t bn,
                             int64_t f0, int last, int init, char *best, int64_t *idx, int w,
                             int op, int kind, int64_t inf, int sw)
{
    const int64_t lanes = V_BYTES / w;
    const vec flip = v_set1(w, kind == KIND_UNSIGNED ? SMIN(w) : 0);
    /* Each vector's next row is asked for a row ahead: the fold's stream of
       rows, interleaved with its best keys and indices, outruns the hardware
       prefetcher even when the rows are back to back. The address may lie
       past the input: it is formed as an integer. */
    int64_t r = 0;
#define COLS_FOR_EACH_VECTOR(BODY)                                                      \
    for (int64_t j = 0;; j += lanes) {                                                  \
        int64_t jj = j + lanes <= bn ? j : bn - lanes;                                  \
        BODY if (jj + lanes >= bn) break;                                               \
    }
#define COLS_FOLD_ROW(STORE)                                                            \
    {                                                                                   \
        const char *q = p + r * rs;                                                     \
        int64_t f = f0 + r * fw;                                                        \
        (void)f;                                                                        \
        COLS_FOR_EACH_VECTOR({                                                          \
            v_prefetch((const char *)((uintptr_t)q + (uintptr_t)(rs + jj * w)));        \
            vec k = v_keys(v_load_row(q + jj * w, w, sw), w, op, kind, inf);            \
            vec b = v_xor(v_load(best + jj * w), flip);                                 \
            if (r < DENSE_ROWS || (last ? v_ge(w, k, b) : v_gt(w, k, b))) {             \
                STORE;                                                                  \
                v_store(best + jj * w, v_xor(v_max(w, k, b), flip));                    \
            }                                                                           \
        })                                                                              \
    }
    if (init) {
        COLS_FOR_EACH_VECTOR({
            v_store(best + jj * w, v_xor(v_keys(v_load_row(p + jj * w, w, sw), w, op, kind, inf), flip));
        })
        r = 1;
    }
#if HAS_STORE_ROW
    if (bn <= ROWBUF_COLS) {
        /* Dense rows note each column's row in a byte; indices are
           written once after them. */
        const int64_t dense_rows = rows < DENSE_ROWS ? rows : DENSE_ROWS;
        int8_t row_of[ROWBUF_COLS];
        memset(row_of, init ? 0 : -1, (size_t)bn);
        for (; r < dense_rows; r++)
            COLS_FOLD_ROW(v_store_row(w, row_of + jj, last ? v_gem(w, k, b) : v_gtm(w, k, b),
                                      (int)r))
        for (int64_t j = 0; j < bn; j++)
            if (row_of[j] >= 0)
                idx[j] = f0 + row_of[j] * fw;
        init = 0;
    }
#endif
    if (init)
        for (int64_t j = 0; j < bn; j++)
            idx[j] = f0;
    for (; r < rows; r++)
        COLS_FOLD_ROW(v_store_index(w, idx + jj, last ? v_gem(w, k, b) : v_gtm(w, k, b), f))
#undef COLS_FOLD_ROW
#undef COLS_FOR_EACH_VECTOR
}

/* Per dtype and operator: the three kernel shapes, with the baseline ones
   for what is not vectorised. */
#define SIMD_KIND(ENUM, KT)                                                    \
    (ARGEXT_##ENUM <= ARGEXT_FLOAT64 ? KIND_FLOAT                                \
     : ((KT)-1 > 0)                  ? KIND_UNSIGNED                             \
                                     : KIND_SIGNED)

/* Integer dtypes of 64-bit lanes where the ISA has no 64-bit compare
   (HAS_CMP64 0): the baseline's scalar loop beats an emulated compare.
   float64 stays: its row blocks take their extreme by float compares. */
#define SIMD_SCALAR(ENUM, KT) (!HAS_CMP64 && sizeof(KT) == 8 && ARGEXT_##ENUM != ARGEXT_FLOAT64)
/* ... except rows of a few blocks or more, where the ISA has filter scans. */
#define SIMD_SCALAR_ROW(ENUM, KT, n)                                                     \
    (SIMD_SCALAR(ENUM, KT) && !(FILTER_SCAN(8, KIND_SIGNED) && (n) >= 4 * (V_BYTES / 8) * BLOCK_VECS))

/* Rows shorter than a vector: masked vectors where the ISA has them. */
#if HAS_ACTIVE_LOAD
#define SHORT_ROWS(ENUM, OP)                                                              \
    if (s == w && n < V_BYTES / w) {                                                      \
        for (int64_t k = 0; k < count; k++)                                               \
            idx[k] = row_short(p + k * ps, n, last, w, OP, kind, float_inf[ARGEXT_##ENUM]); \
        return;                                                                           \
    }
#else
#define SHORT_ROWS(ENUM, OP)
#endif

#include "kernels/byteswap.h"

static const int64_t float_inf[ARGEXT_DTYPE_COUNT] = {
    [ARGEXT_FLOAT16] = ARGEXT_FLOAT16_INF,
    [ARGEXT_BFLOAT16] = ARGEXT_BFLOAT16_INF,
    [ARGEXT_FLOAT32] = ARGEXT_FLOAT32_INF,
    [ARGEXT_FLOAT64] = (int64_t)ARGEXT_FLOAT64_INF,
};

#define DEFINE_SIMD_OP(ENUM, NAME, KT, OP, op)                                                \
    static int64_t row_##op##_##NAME(const char *p, int64_t n, int64_t s, int last, int init, \
                                     void *bestp)                                             \
    {                                                                                         \
        const int w = (int)sizeof(KT), kind = SIMD_KIND(ENUM, KT);                            \
        if (SIMD_SCALAR_ROW(ENUM, KT, n) || s != w || n < V_BYTES / w)                        \
            return argext_kernels_baseline.row[OP][ARGEXT_##ENUM](p, n, s, last, init, bestp); \
        int64_t best = init ? 0 : key_to_lane(bestp, w, kind);                                \
        int64_t bi = row_simd(p, n, last, init, &best, w, OP, kind, float_inf[ARGEXT_##ENUM], \
                              native_blocks(w, kind, n), 0);                                  \
        lane_to_key(best, bestp, w, kind);                                                    \
        return bi;                                                                            \
    }                                                                                         \
    static int64_t row_swapped_##op##_##NAME(const char *p, int64_t n, int64_t s, int last,   \
                                             int init, void *bestp)                           \
    {                                                                                         \
        const int w = (int)sizeof(KT), kind = SIMD_KIND(ENUM, KT);                            \
        if (w == 1) /* one byte: nothing to swap */                                           \
            return row_##op##_##NAME(p, n, s, last, init, bestp);                             \
        if (SIMD_SCALAR_ROW(ENUM, KT, n) || s != w || n < V_BYTES / w)                        \
            return row_swapped_blocks(row_##op##_##NAME, p, n, s, w, last, init, bestp);      \
        int64_t best = init ? 0 : key_to_lane(bestp, w, kind);                                \
        int64_t bi = row_simd(p, n, last, init, &best, w, OP, kind, float_inf[ARGEXT_##ENUM], \
                              native_blocks(w, kind, n), 1);                                  \
        lane_to_key(best, bestp, w, kind);                                                    \
        return bi;                                                                            \
    }                                                                                         \
    static void cols_##op##_##NAME(const char *p, int64_t rows, int64_t rs, int64_t fw,       \
                                   int64_t bn, int64_t cs, int64_t f0, int last, int init,    \
                                   void *best, int64_t *idx)                                  \
    {                                                                                         \
        const int w = (int)sizeof(KT);                                                        \
        if (SIMD_SCALAR(ENUM, KT) || cs != w || bn < V_BYTES / w) {                           \
            argext_kernels_baseline.cols[OP][ARGEXT_##ENUM](p, rows, rs, fw, bn, cs, f0, last, \
                                                            init, best, idx);                 \
            return;                                                                           \
        }                                                                                     \
        cols_simd(p, rows, rs, fw, bn, f0, last, init, (char *)best, idx, w, OP,              \
                  SIMD_KIND(ENUM, KT), float_inf[ARGEXT_##ENUM], 0);                          \
    }                                                                                         \
    static int cols_swapped_##op##_##NAME(const char *p, int64_t rows, int64_t rs, int64_t fw, \
                                          int64_t bn, int64_t cs, int64_t f0, int last,       \
                                          int init, void *best, int64_t *idx)                 \
    {                                                                                         \
        const int w = (int)sizeof(KT);                                                        \
        if (w == 1 || SIMD_SCALAR(ENUM, KT) || cs != w || bn < V_BYTES / w)                  \
            return 0;                                                                         \
        cols_simd(p, rows, rs, fw, bn, f0, last, init, (char *)best, idx, w, OP,              \
                  SIMD_KIND(ENUM, KT), float_inf[ARGEXT_##ENUM], 1);                          \
        return 1;                                                                             \
    }                                                                                         \
    static void rows_##op##_##NAME(const char *p, int64_t count, int64_t ps, int64_t n,       \
                                   int64_t s, int last, int64_t *idx)                         \
    {                                                                                         \
        const int w = (int)sizeof(KT), kind = SIMD_KIND(ENUM, KT);                            \
        if (s == w && ps == n * w && n >= 2 && n <= DENSE_ROW_MAX && (n & (n - 1)) == 0 &&    \
            !SIMD_SCALAR(ENUM, KT)) {                                                         \
            int64_t done = rows_dense(p, count, n, last, idx, w, OP, kind,                    \
                                      float_inf[ARGEXT_##ENUM], float_compares(w, kind));     \
            p += done * ps;                                                                   \
            idx += done;                                                                      \
            count -= done;                                                                    \
        }                                                                                     \
        SHORT_ROWS(ENUM, OP)                                                                  \
        if (SIMD_SCALAR_ROW(ENUM, KT, n) || s != w || n < V_BYTES / w) {                      \
            argext_kernels_baseline.rows[OP][ARGEXT_##ENUM](p, count, ps, n, s, last, idx);   \
            return;                                                                           \
        }                                                                                     \
        const int native = native_blocks(w, kind, n);                                         \
        for (int64_t k = 0; k < count; k++) {                                                 \
            int64_t best;                                                                     \
            idx[k] = row_simd(p + k * ps, n, last, 1, &best, w, OP, kind,                     \
                              float_inf[ARGEXT_##ENUM], native, 0);                           \
        }                                                                                     \
    }

#define DEFINE_SIMD_DTYPE(ENUM, NAME, ET, KT, KMAX)       \
    DEFINE_SIMD_OP(ENUM, NAME, KT, ARGEXT_OP_MAX, max)    \
    DEFINE_SIMD_OP(ENUM, NAME, KT, ARGEXT_OP_MIN, min)    \
    DEFINE_SIMD_OP(ENUM, NAME, KT, ARGEXT_OP_NANMAX, nanmax) \
    DEFINE_SIMD_OP(ENUM, NAME, KT, ARGEXT_OP_NANMIN, nanmin)
ARGEXT_DTYPES(DEFINE_SIMD_DTYPE)

#define SIMD_ENTRY(ENUM, NAME, SHAPE, op) [ARGEXT_##ENUM] = SHAPE##_##op##_##NAME,
#define ROW_MAX(ENUM, NAME, ET, KT, KMAX) SIMD_ENTRY(ENUM, NAME, row, max)
#define ROW_MIN(ENUM, NAME, ET, KT, KMAX) SIMD_ENTRY(ENUM, NAME, row, min)
#define ROW_NANMAX(ENUM, NAME, ET, KT, KMAX) SIMD_ENTRY(ENUM, NAME, row, nanmax)
#define ROW_NANMIN(ENUM, NAME, ET, KT, KMAX) SIMD_ENTRY(ENUM, NAME, row, nanmin)
#define ROW_SWAPPED_MAX(ENUM, NAME, ET, KT, KMAX) SIMD_ENTRY(ENUM, NAME, row_swapped, max)
#define ROW_SWAPPED_MIN(ENUM, NAME, ET, KT, KMAX) SIMD_ENTRY(ENUM, NAME, row_swapped, min)
#define ROW_SWAPPED_NANMAX(ENUM, NAME, ET, KT, KMAX) SIMD_ENTRY(ENUM, NAME, row_swapped, nanmax)
#define ROW_SWAPPED_NANMIN(ENUM, NAME, ET, KT, KMAX) SIMD_ENTRY(ENUM, NAME, row_swapped, nanmin)
#define COLS_MAX(ENUM, NAME, ET, KT, KMAX) SIMD_ENTRY(ENUM, NAME, cols, max)
#define COLS_MIN(ENUM, NAME, ET, KT, KMAX) SIMD_ENTRY(ENUM, NAME, cols, min)
#define COLS_NANMAX(ENUM, NAME, ET, KT, KMAX) SIMD_ENTRY(ENUM, NAME, cols, nanmax)
#define COLS_NANMIN(ENUM, NAME, ET, KT, KMAX) SIMD_ENTRY(ENUM, NAME, cols, nanmin)
#define COLS_SWAPPED_MAX(ENUM, NAME, ET, KT, KMAX) SIMD_ENTRY(ENUM, NAME, cols_swapped, max)
#define COLS_SWAPPED_MIN(ENUM, NAME, ET, KT, KMAX) SIMD_ENTRY(ENUM, NAME, cols_swapped, min)
#define COLS_SWAPPED_NANMAX(ENUM, NAME, ET, KT, KMAX) SIMD_ENTRY(ENUM, NAME, cols_swapped, nanmax)
#define COLS_SWAPPED_NANMIN(ENUM, NAME, ET, KT, KMAX) SIMD_ENTRY(ENUM, NAME, cols_swapped, nanmin)
#define ROWS_MAX(ENUM, NAME, ET, KT, KMAX) SIMD_ENTRY(ENUM, NAME, rows, max)
#define ROWS_MIN(ENUM, NAME, ET, KT, KMAX) SIMD_ENTRY(ENUM, NAME, rows, min)
#define ROWS_NANMAX(ENUM, NAME, ET, KT, KMAX) SIMD_ENTRY(ENUM, NAME, rows, nanmax)
#define ROWS_NANMIN(ENUM, NAME, ET, KT, KMAX) SIMD_ENTRY(ENUM, NAME, rows, nanmin)
#define OPS_OF(SHAPE)                                                                   \
    {{ARGEXT_DTYPES(SHAPE##_MAX)}, {ARGEXT_DTYPES(SHAPE##_MIN)},                        \
     {ARGEXT_DTYPES(SHAPE##_NANMAX)}, {ARGEXT_DTYPES(SHAPE##_NANMIN)}}

const argext_kernel_table ISA_TABLE = {
    .row = OPS_OF(ROW),
    .row_swapped = OPS_OF(ROW_SWAPPED),
    .cols = OPS_OF(COLS),
    .cols_swapped = OPS_OF(COLS_SWAPPED),
    .rows = OPS_OF(ROWS),
    .swap = swap_block,
};
