/*
 * kernels_baseline.c - portable C kernels, instantiated once per dtype and
 * operator from ARGEXT_DTYPES. Written so that the compiler vectorises the
 * hot loops for the architecture's baseline (SSE2 on x86-64, NEON on arm64).
 */
#include <string.h>

#include "kernels/abi.h"
#include "kernels/byteswap.h"
#include "kernels/transpose.h"
#include "kernels/dtypes.h"
#include "kernels/isa_tables.h"
#include "kernels/table.h"

/* The kernels' names: argext_<op>_<shape>_<dtype>_baseline. */
#define KERNEL(OP, SHAPE, DTYPE) argext_##OP##_##SHAPE##_##DTYPE##_baseline

/* Elements per block of a contiguous row: max over the block first, then
   locate inside it only when it improves on the best so far. */
#define ROW_BLOCK 256

#define LOAD(ET, p) (*(ET *)memcpy(&(ET){0}, (p), sizeof(ET)))

#define DEFINE_ROW(FN, ET, KT, KMAX, KEY)                                                  \
    static int64_t FN(const char *p, int64_t n, int64_t s, int last, int init, void *bestp) \
    {                                                                                      \
        KT best;                                                                           \
        int64_t bi = -1, i = 0;                                                            \
        if (init) {                                                                        \
            best = KEY(LOAD(ET, p));                                                       \
            bi = 0;                                                                        \
            i = 1;                                                                         \
        } else {                                                                           \
            memcpy(&best, bestp, sizeof best);                                             \
        }                                                                                  \
        if (s == (int64_t)sizeof(ET)) {                                                    \
            for (; i + ROW_BLOCK <= n && !(best == (KT)(KMAX) && !last); i += ROW_BLOCK) { \
                const char *q = p + i * s;                                                 \
                KT m = KEY(LOAD(ET, q));                                                   \
                for (int j = 1; j < ROW_BLOCK; j++) {                                      \
                    KT k = KEY(LOAD(ET, q + j * s));                                       \
                    m = k > m ? k : m;                                                     \
                }                                                                          \
                if (m > best || (last && m == best)) {                                     \
                    int j = last ? ROW_BLOCK - 1 : 0;                                      \
                    while (KEY(LOAD(ET, q + j * s)) != m)                                  \
                        j += last ? -1 : 1;                                                \
                    best = m;                                                              \
                    bi = i + j;                                                            \
                }                                                                          \
            }                                                                              \
        }                                                                                  \
        if (last) {                                                                        \
            for (; i < n; i++) {                                                           \
                KT k = KEY(LOAD(ET, p + i * s));                                           \
                if (k >= best) {                                                           \
                    best = k;                                                              \
                    bi = i;                                                                \
                }                                                                          \
            }                                                                              \
        } else {                                                                           \
            for (; i < n && best != (KT)(KMAX); i++) {                                     \
                KT k = KEY(LOAD(ET, p + i * s));                                           \
                if (k > best) {                                                            \
                    best = k;                                                              \
                    bi = i;                                                                \
                }                                                                          \
            }                                                                              \
        }                                                                                  \
        memcpy(bestp, &best, sizeof best);                                                 \
        return bi;                                                                         \
    }

/* The column fold's keys live in a caller's untyped buffer (any key type),
   so they are read and written through memcpy, never through a cast pointer. */
#define KEY_AT(KT, b, j) LOAD(KT, (b) + (j) * (int64_t)sizeof(KT))
#define SET_KEY(KT, b, j, k) memcpy((b) + (j) * (int64_t)sizeof(KT), &(KT){k}, sizeof(KT))

/* One row of the column fold; `better` is the strict or non-strict test. */
#define COLS_ROW(ET, KT, KEY, q, bn, cs, f, better)                                        \
    do {                                                                                   \
        if ((cs) == (int64_t)sizeof(ET)) {                                                 \
            for (int64_t j = 0; j < (bn); j++) {                                           \
                KT k = KEY(LOAD(ET, (q) + j * (int64_t)sizeof(ET)));                       \
                KT b = KEY_AT(KT, best, j);                                                \
                int up = better(k, b);                                                     \
                SET_KEY(KT, best, j, up ? k : b);                                          \
                idx[j] = up ? (f) : idx[j];                                                \
            }                                                                              \
        } else {                                                                           \
            for (int64_t j = 0; j < (bn); j++) {                                           \
                KT k = KEY(LOAD(ET, (q) + j * (cs)));                                      \
                if (better(k, KEY_AT(KT, best, j))) {                                      \
                    SET_KEY(KT, best, j, k);                                               \
                    idx[j] = (f);                                                          \
                }                                                                          \
            }                                                                              \
        }                                                                                  \
    } while (0)

#define GT(a, b) ((a) > (b))
#define GE(a, b) ((a) >= (b))

#define DEFINE_COLS(FN, ET, KT, KEY)                                                      \
    static void FN(const char *p, int64_t rows, int64_t rs, int64_t weight, int64_t bn,        \
                   int64_t cs, int64_t f0, int last, int init, int stream, void *bestp,   \
                   int64_t *idx, int8_t *row_of)                                          \
    {                                                                                     \
        char *best = (char *)bestp;                                                       \
        (void)row_of, (void)stream; /* plain stores: the compiler's */                    \
        int64_t r = 0;                                                                    \
        if (init) {                                                                       \
            for (int64_t j = 0; j < bn; j++) {                                            \
                SET_KEY(KT, best, j, KEY(LOAD(ET, p + j * cs)));                          \
                idx[j] = f0;                                                              \
            }                                                                             \
            r = 1;                                                                        \
        }                                                                                 \
        for (; r < rows; r++) {                                                           \
            const char *q = p + r * rs;                                                   \
            int64_t f = f0 + r * weight;                                                     \
            if (last)                                                                     \
                COLS_ROW(ET, KT, KEY, q, bn, cs, f, GE);                                  \
            else                                                                          \
                COLS_ROW(ET, KT, KEY, q, bn, cs, f, GT);                                  \
        }                                                                                 \
    }

#define DEFINE_ROWS(FN, ROW, KT)                                                          \
    static void FN(const char *p, int64_t count, int64_t ps, int64_t n, int64_t s, int last, \
                   int64_t *idx)                                                           \
    {                                                                                      \
        KT best;                                                                           \
        for (int64_t k = 0; k < count; k++)                                                \
            idx[k] = ROW(p + k * ps, n, s, last, 1, &best);                                \
    }

/* Byte-swapped rows are swapped onto the stack a block at a time. */
#define DEFINE_ROW_SWAPPED(FN, ROW, ET)                                                    \
    static int64_t FN(const char *p, int64_t n, int64_t s, int last, int init, void *bestp) \
    {                                                                                      \
        return row_swapped_blocks(ROW, p, n, s, (int)sizeof(ET), last, init, bestp);       \
    }

/* A key as the signed lane value TopK's candidates hold (topk.h). */
#define LANE_KEY_FLOAT(KT, k) ((int64_t)(k))
#define LANE_KEY_SIGNED(KT, k) ((int64_t)(k))
#define LANE_KEY_UNSIGNED(KT, k) ((int64_t)((uint64_t)(k) - (UINT64_C(1) << (8 * sizeof(KT) - 1))))
/* The smallest lane value of KT's width. */
#define LANE_KEY_FLOOR(KT) (-(int64_t)((UINT64_C(1) << (8 * sizeof(KT) - 1)) - 1) - 1)


/* An element of the opposite byte order, read swapped. */
static void *load_swapped(void *dst, const char *src, size_t w)
{
    for (size_t b = 0; b < w; b++)
        ((char *)dst)[b] = src[w - 1 - b];
    return dst;
}
#define LOAD_SWAPPED(ET, p) (*(ET *)load_swapped(&(ET){0}, (p), sizeof(ET)))

#define DEFINE_TOPK(FN, ET, KT, KEY, KIND, LOADER)                                           \
    static void FN(const char *p, int64_t n, int64_t s, int64_t i0, argext_topk_set *set)    \
    {                                                                                        \
        if (set->open && set->count == 0 && n >= ARGEXT_TOPK_PRIME_ROWS * set->cap) {        \
            for (int64_t j = 0; j < set->cap; j++)                                           \
                set->keys[j] = LANE_KEY_##KIND(KT, KEY(LOADER(ET, p + (n - 1 - j) * s)));    \
            argext_topk_prime(set, set->cap, LANE_KEY_FLOOR(KT));                            \
        }                                                                                    \
        for (int64_t j = 0; j < n; j++)                                                      \
            argext_topk_offer(set, LANE_KEY_##KIND(KT, KEY(LOADER(ET, p + j * s))), i0 + j); \
    }

/* TopK's columns: each column's k best kept by insertion, row by row. */
#define DEFINE_TOPK_COLS(FN, ET, KT, KEY, KIND, LOADER)                                      \
    static void FN(const char *p, int64_t rows, int64_t rs, int64_t bn, int64_t cs, int64_t k, \
                   int64_t ld, int64_t *idx, void *work)                                      \
    {                                                                                        \
        int64_t *keys = (int64_t *)work;                                                     \
        for (int64_t r = 0; r < rows; r++) {                                                 \
            const char *q = p + r * rs;                                                      \
            int64_t m = r < k ? r : k;                                                       \
            for (int64_t j = 0; j < bn; j++)                                                 \
                argext_topk_col_insert(keys + j, idx + j, ld, m, k,                          \
                                       LANE_KEY_##KIND(KT, KEY(LOADER(ET, q + j * cs))), r); \
        }                                                                                    \
    }
#define DEFINE_TOPK_OP(OP, NAME, ET, KT, KEY, KIND)                                \
    DEFINE_TOPK(KERNEL(OP, topk, NAME), ET, KT, KEY, KIND, LOAD)                   \
    DEFINE_TOPK(KERNEL(OP, topk_swapped, NAME), ET, KT, KEY, KIND, LOAD_SWAPPED)   \
    DEFINE_TOPK_COLS(KERNEL(OP, topk_cols, NAME), ET, KT, KEY, KIND, LOAD)         \
    DEFINE_TOPK_COLS(KERNEL(OP, topk_cols_swapped, NAME), ET, KT, KEY, KIND, LOAD_SWAPPED)

#define DEFINE_OP(NAME, ET, KT, KMAX, OP, KEY)                                     \
    DEFINE_ROW(KERNEL(OP, row, NAME), ET, KT, KMAX, KEY)                           \
    DEFINE_COLS(KERNEL(OP, cols, NAME), ET, KT, KEY)                               \
    DEFINE_ROWS(KERNEL(OP, rows, NAME), KERNEL(OP, row, NAME), KT)                 \
    DEFINE_ROW_SWAPPED(KERNEL(OP, row_swapped, NAME), KERNEL(OP, row, NAME), ET)
/* nanargmax and nanargmin: kernels of their own for floats only (ops.h). */
#define DEFINE_NAN_OPS_FLOAT(NAME, ET, KT, KMAX)                                   \
    DEFINE_OP(NAME, ET, KT, KMAX, nanargmax, argext_keynanmax_##NAME)          \
    DEFINE_OP(NAME, ET, KT, KMAX, nanargmin, argext_keynanmin_##NAME)
#define DEFINE_NAN_OPS_SIGNED(...)
#define DEFINE_NAN_OPS_UNSIGNED(...)
#define DEFINE_DTYPE(ENUM, NAME, ET, KT, KMAX, LANE, KIND, INF, ONE)             \
    DEFINE_OP(NAME, ET, KT, KMAX, argmax, argext_keymax_##NAME)                \
    DEFINE_OP(NAME, ET, KT, KMAX, argmin, argext_keymin_##NAME)                \
    DEFINE_NAN_OPS_##KIND(NAME, ET, KT, KMAX)                                  \
    DEFINE_TOPK_OP(argmax, NAME, ET, KT, argext_keymax_##NAME, KIND)                     \
    DEFINE_TOPK_OP(argmin, NAME, ET, KT, argext_keymin_##NAME, KIND)
ARGEXT_DTYPES(DEFINE_DTYPE)

/* No column kernel reads byte-swapped input in place here. */
static int argext_cols_swapped_none_baseline(const char *p, int64_t rows, int64_t rs, int64_t weight,
                                             int64_t bn, int64_t cs, int64_t f0, int last, int init,
                                             int stream, void *best, int64_t *idx, int8_t *row_of)
{
    (void)p, (void)rows, (void)rs, (void)weight, (void)bn, (void)cs, (void)f0, (void)last, (void)init;
    (void)stream;
    (void)best, (void)idx, (void)row_of;
    return 0;
}
#define COLS_SWAPPED_NONE(ENUM, ...) [ARGEXT_##ENUM] = argext_cols_swapped_none_baseline,
#define COLS_SWAPPED_OPS                                                                           \
    {{ARGEXT_DTYPES(COLS_SWAPPED_NONE)}, {ARGEXT_DTYPES(COLS_SWAPPED_NONE)},                        \
     {ARGEXT_DTYPES(COLS_SWAPPED_NONE)}, {ARGEXT_DTYPES(COLS_SWAPPED_NONE)}}

/* The scalar fold takes the engine's runs as they come. */
static int argext_cols_unasked_none_baseline(int64_t rows, int64_t rs, int64_t bn)
{
    (void)rows, (void)rs, (void)bn;
    return 0;
}
#define COLS_UNASKED(ENUM, ...) [ARGEXT_##ENUM] = argext_cols_unasked_none_baseline,

/* No TopK register kernel: the column kernel takes every block. */
static int argext_topk_regs_none_baseline(const char *p, int64_t rows, int64_t rs, int64_t bn,
                                          int64_t k, int sorted, char *values, int64_t vstep,
                                          char *indices, int64_t istep, int stream)
{
    (void)p, (void)rows, (void)rs, (void)bn, (void)k, (void)sorted, (void)values, (void)vstep;
    (void)indices, (void)istep, (void)stream;
    return 0;
}
#define TOPK_REGS_NONE(ENUM, ...) [ARGEXT_##ENUM] = argext_topk_regs_none_baseline,
#define TOPK_REGS_OPS(SHAPE) {{ARGEXT_DTYPES(TOPK_REGS_NONE)}, {ARGEXT_DTYPES(TOPK_REGS_NONE)}}

static void argext_byteswap_baseline(unsigned char *dst, const char *src, int64_t rows, int64_t rs,
                                     int64_t n, int64_t s, int itemsize, int64_t ahead)
{
    swap_block(dst, src, rows, rs, n, s, itemsize, ahead);
}
#define SWAP_KERNEL argext_byteswap_baseline

static void argext_transpose_baseline(char *dst, int64_t ld, const char *src, int64_t rows,
                                      int64_t rs, int64_t n, int itemsize, int64_t ahead)
{
    transpose_prefetch(src, rows, rs, n * itemsize, ahead);
    transpose_elements(dst, ld, src, 0, rows, rs, 0, n, itemsize);
}
#define TRANSPOSE_KERNEL argext_transpose_baseline

const argext_kernel_table argext_kernels_baseline = {
#include "kernels/table_init.h"
};
