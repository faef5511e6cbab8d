/*
 * kernels_simd.h - the one SIMD kernel template, included by each x86-64
 * ISA file (kernels_avx2.c, kernels_avx512.c) after it has defined:
 *
 *   vec, V_BYTES            the integer vector type and its size in bytes
 *   LANE_BITS(w)            bits per lane in a comparison mask (w: lane bytes)
 *   v_load, v_store, v_set1, v_xor, v_and, v_sub, v_sign, v_max,
 *   v_sel_gt, v_gt, v_ge, v_eq, v_hmax, v_lane0   (see kernels_avx2.c)
 *   ISA_TABLE               the name of the kernel table to define
 *
 * Keys are those of dtypes.h, held as signed lanes of the element's width:
 * unsigned keys get their sign bit flipped, so one signed comparison orders
 * every dtype; the kernels' `best` buffers keep the dtypes.h key type.
 * Layouts not vectorised here (strided rows or columns, rows or column
 * blocks narrower than one vector) go to the baseline kernels, so results
 * are those of the baseline bit for bit.
 */
#include <string.h>

#include "dtypes.h"
#include "kernels.h"

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#define ALWAYS_INLINE static __forceinline
static __forceinline int ctz64(uint64_t x)
{
    unsigned long i;
    _BitScanForward64(&i, x);
    return (int)i;
}
static __forceinline int msb64(uint64_t x)
{
    unsigned long i;
    _BitScanReverse64(&i, x);
    return (int)i;
}
#else
#define ALWAYS_INLINE static inline __attribute__((always_inline))
#define ctz64(x) __builtin_ctzll(x)
#define msb64(x) (63 - __builtin_clzll(x))
#endif

/* Vectors per block of a contiguous row: the block's maximum is found
   first; the block is searched only when it beats the best so far. */
#define BLOCK_VECS 16

enum { KIND_SIGNED, KIND_UNSIGNED, KIND_FLOAT };

/* Largest and smallest signed value of a w-byte lane. */
#define SMAX(w) ((int64_t)((UINT64_C(1) << (8 * (w) - 1)) - 1))
#define SMIN(w) (-SMAX(w) - 1)

/* Keys of the lanes of v; see dtypes.h. */
ALWAYS_INLINE vec v_keys(vec v, int w, int op, int kind, int64_t inf)
{
    if (kind == KIND_FLOAT) {
        vec m = v_and(v, v_set1(w, SMAX(w)));
        vec s = v_sign(w, v);
        vec k = v_sub(w, v_xor(m, s), s);
        if (op == ARGEXT_OP_MIN)
            k = v_xor(k, v_set1(w, -1));
        return v_sel_gt(w, m, v_set1(w, inf), k, v_set1(w, SMAX(w))); /* NaN */
    }
    int64_t flip = (op == ARGEXT_OP_MIN ? -1 : 0) ^ (kind == KIND_UNSIGNED ? SMIN(w) : 0);
    return flip ? v_xor(v, v_set1(w, flip)) : v;
}

/* A w-byte key of the dtypes.h key type <-> its signed lane value. */
ALWAYS_INLINE int64_t key_to_lane(const void *key, int w, int kind)
{
    uint64_t u = 0;
    memcpy(&u, key, (size_t)w);
    if (kind == KIND_UNSIGNED)
        u ^= UINT64_C(1) << (8 * w - 1);
    int sh = 64 - 8 * w;
    return sh ? (int64_t)(u << sh) >> sh : (int64_t)u;
}

ALWAYS_INLINE void lane_to_key(int64_t lane, void *key, int w, int kind)
{
    uint64_t u = (uint64_t)lane;
    if (kind == KIND_UNSIGNED)
        u ^= UINT64_C(1) << (8 * w - 1);
    memcpy(key, &u, (size_t)w);
}

/*
 * One contiguous row of n >= V_BYTES / w elements. Blocks of whole vectors;
 * the last vector may overlap the previous block (re-reading elements
 * already seen cannot change the result: the strict test rejects them, the
 * non-strict one is kept from moving the index backwards).
 */
ALWAYS_INLINE int64_t row_simd(const char *p, int64_t n, int last, int init, int64_t *bestp,
                               int w, int op, int kind, int64_t inf)
{
    const int64_t lanes = V_BYTES / w, block = lanes * BLOCK_VECS;
    const uint64_t lane_mask = (UINT64_C(1) << LANE_BITS(w)) - 1;
    int64_t best = init ? SMIN(w) : *bestp, bi = -1, i = 0;
    int force = init; /* the first block of a new row always sets the best */
    vec bestv = v_set1(w, best);
    (void)lane_mask;
    while (i < n) {
        int64_t start = i, nv;
        if (i + block <= n) {
            nv = BLOCK_VECS;
        } else if (i + lanes <= n) {
            nv = (n - i) / lanes;
        } else {
            start = n - lanes;
            nv = 1;
        }
        const char *q = p + start * w;
        vec acc = v_keys(v_load(q), w, op, kind, inf);
        for (int64_t k = 1; k < nv; k++)
            acc = v_max(w, acc, v_keys(v_load(q + k * V_BYTES), w, op, kind, inf));
        i = start + nv * lanes;
        int64_t m;
        if (force || v_gt(w, acc, bestv)) {
            vec mv = v_hmax(w, acc);
            m = v_lane0(w, mv);
        } else if (last && v_eq(w, acc, bestv)) {
            m = best;
        } else {
            continue;
        }
        vec mv = v_set1(w, m);
        int64_t j = -1;
        if (last) {
            for (int64_t k = nv - 1; k >= 0 && j < 0; k--) {
                uint64_t e = v_eq(w, v_keys(v_load(q + k * V_BYTES), w, op, kind, inf), mv);
                if (e)
                    j = k * lanes + msb64(e) / LANE_BITS(w);
            }
        } else {
            for (int64_t k = 0; k < nv && j < 0; k++) {
                uint64_t e = v_eq(w, v_keys(v_load(q + k * V_BYTES), w, op, kind, inf), mv);
                if (e)
                    j = k * lanes + ctz64(e) / LANE_BITS(w);
            }
        }
        if (!last || start + j > bi)
            bi = start + j;
        best = m;
        bestv = mv;
        force = 0;
        if (!last && m == SMAX(w))
            break; /* nothing beats the key maximum (NaN, or the integer extreme) */
    }
    *bestp = best;
    return bi;
}

/*
 * bn >= V_BYTES / w contiguous columns folded over `rows` rows; the last
 * vector of a row may overlap the one before it (idempotent: a column
 * updated twice by the same row gets the same key and index).
 */
ALWAYS_INLINE void cols_simd(const char *p, int64_t rows, int64_t rs, int64_t fw, int64_t bn,
                             int64_t f0, int last, int init, char *best, int64_t *idx, int w,
                             int op, int kind, int64_t inf)
{
    const int64_t lanes = V_BYTES / w;
    const uint64_t lane_mask = (UINT64_C(1) << LANE_BITS(w)) - 1;
    const vec flip = v_set1(w, kind == KIND_UNSIGNED ? SMIN(w) : 0);
    int64_t r = 0;
    if (init) {
        for (int64_t j = 0;; j += lanes) {
            int64_t jj = j + lanes <= bn ? j : bn - lanes;
            v_store(best + jj * w, v_xor(v_keys(v_load(p + jj * w), w, op, kind, inf), flip));
            if (jj + lanes >= bn)
                break;
        }
        for (int64_t j = 0; j < bn; j++)
            idx[j] = f0;
        r = 1;
    }
    for (; r < rows; r++) {
        const char *q = p + r * rs;
        int64_t f = f0 + r * fw;
        for (int64_t j = 0;; j += lanes) {
            int64_t jj = j + lanes <= bn ? j : bn - lanes;
            vec k = v_keys(v_load(q + jj * w), w, op, kind, inf);
            vec b = v_xor(v_load(best + jj * w), flip);
            uint64_t up = last ? v_ge(w, k, b) : v_gt(w, k, b);
            if (up) {
                v_store(best + jj * w, v_xor(v_max(w, k, b), flip));
                do {
                    int t = ctz64(up);
                    idx[jj + t / LANE_BITS(w)] = f;
                    up &= ~(lane_mask << t);
                } while (up);
            }
            if (jj + lanes >= bn)
                break;
        }
    }
}

/* Per dtype and operator: the three kernel shapes, with the baseline ones
   for what is not vectorised. */
#define SIMD_KIND(ENUM, KT)                                                    \
    (ARGEXT_##ENUM <= ARGEXT_FLOAT64 ? KIND_FLOAT                                \
     : ((KT)-1 > 0)                  ? KIND_UNSIGNED                             \
                                     : KIND_SIGNED)

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
        if (s != w || n < V_BYTES / w)                                                        \
            return argext_kernels_baseline.row[OP][ARGEXT_##ENUM](p, n, s, last, init, bestp); \
        int64_t best = init ? 0 : key_to_lane(bestp, w, kind);                                \
        int64_t bi = row_simd(p, n, last, init, &best, w, OP, kind, float_inf[ARGEXT_##ENUM]); \
        lane_to_key(best, bestp, w, kind);                                                    \
        return bi;                                                                            \
    }                                                                                         \
    static void cols_##op##_##NAME(const char *p, int64_t rows, int64_t rs, int64_t fw,       \
                                   int64_t bn, int64_t cs, int64_t f0, int last, int init,    \
                                   void *best, int64_t *idx)                                  \
    {                                                                                         \
        const int w = (int)sizeof(KT);                                                        \
        if (cs != w || bn < V_BYTES / w) {                                                    \
            argext_kernels_baseline.cols[OP][ARGEXT_##ENUM](p, rows, rs, fw, bn, cs, f0, last, \
                                                            init, best, idx);                 \
            return;                                                                           \
        }                                                                                     \
        cols_simd(p, rows, rs, fw, bn, f0, last, init, (char *)best, idx, w, OP,              \
                  SIMD_KIND(ENUM, KT), float_inf[ARGEXT_##ENUM]);                             \
    }                                                                                         \
    static void rows_##op##_##NAME(const char *p, int64_t count, int64_t ps, int64_t n,       \
                                   int64_t s, int last, int64_t *idx)                         \
    {                                                                                         \
        const int w = (int)sizeof(KT), kind = SIMD_KIND(ENUM, KT);                            \
        if (s != w || n < V_BYTES / w) {                                                      \
            argext_kernels_baseline.rows[OP][ARGEXT_##ENUM](p, count, ps, n, s, last, idx);   \
            return;                                                                           \
        }                                                                                     \
        for (int64_t k = 0; k < count; k++) {                                                 \
            int64_t best;                                                                     \
            idx[k] = row_simd(p + k * ps, n, last, 1, &best, w, OP, kind,                     \
                              float_inf[ARGEXT_##ENUM]);                                      \
        }                                                                                     \
    }

#define DEFINE_SIMD_DTYPE(ENUM, NAME, ET, KT, KMAX)       \
    DEFINE_SIMD_OP(ENUM, NAME, KT, ARGEXT_OP_MAX, max)    \
    DEFINE_SIMD_OP(ENUM, NAME, KT, ARGEXT_OP_MIN, min)
ARGEXT_DTYPES(DEFINE_SIMD_DTYPE)

#define SIMD_ENTRY(ENUM, NAME, ET, KT, KMAX, SHAPE, op) [ARGEXT_##ENUM] = SHAPE##_##op##_##NAME,
#define ROW_MAX(ENUM, NAME, ET, KT, KMAX) SIMD_ENTRY(ENUM, NAME, ET, KT, KMAX, row, max)
#define ROW_MIN(ENUM, NAME, ET, KT, KMAX) SIMD_ENTRY(ENUM, NAME, ET, KT, KMAX, row, min)
#define COLS_MAX(ENUM, NAME, ET, KT, KMAX) SIMD_ENTRY(ENUM, NAME, ET, KT, KMAX, cols, max)
#define COLS_MIN(ENUM, NAME, ET, KT, KMAX) SIMD_ENTRY(ENUM, NAME, ET, KT, KMAX, cols, min)
#define ROWS_MAX(ENUM, NAME, ET, KT, KMAX) SIMD_ENTRY(ENUM, NAME, ET, KT, KMAX, rows, max)
#define ROWS_MIN(ENUM, NAME, ET, KT, KMAX) SIMD_ENTRY(ENUM, NAME, ET, KT, KMAX, rows, min)

const argext_kernel_table ISA_TABLE = {
    .row = {{ARGEXT_DTYPES(ROW_MAX)}, {ARGEXT_DTYPES(ROW_MIN)}},
    .cols = {{ARGEXT_DTYPES(COLS_MAX)}, {ARGEXT_DTYPES(COLS_MIN)}},
    .rows = {{ARGEXT_DTYPES(ROWS_MAX)}, {ARGEXT_DTYPES(ROWS_MIN)}},
};
