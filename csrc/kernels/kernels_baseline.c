/*
 * kernels_baseline.c - portable C kernels, instantiated once per dtype and
 * operator from ARGEXT_DTYPES. Written so that the compiler vectorises the
 * hot loops for the architecture's baseline (SSE2 on x86-64, NEON on arm64).
 */
#include <string.h>

#include "kernels/dtypes.h"
#include "kernels/kernels.h"

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
    static void FN(const char *p, int64_t rows, int64_t rs, int64_t w, int64_t bn,        \
                   int64_t cs, int64_t f0, int last, int init, void *bestp, int64_t *idx) \
    {                                                                                     \
        char *best = (char *)bestp;                                                       \
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
            int64_t f = f0 + r * w;                                                       \
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

/* The swap kernel's prefetch, where the compiler has one. */
#if defined(__GNUC__) || defined(__clang__)
#define v_prefetch(p) __builtin_prefetch(p)
#else
#define v_prefetch(p) ((void)(p))
#endif
#include "kernels/byteswap.h"

/* Byte-swapped rows are swapped onto the stack a block at a time. */
#define DEFINE_ROW_SWAPPED(FN, ROW, ET)                                                    \
    static int64_t FN(const char *p, int64_t n, int64_t s, int last, int init, void *bestp) \
    {                                                                                      \
        if (sizeof(ET) == 1) /* one byte: nothing to swap */                               \
            return ROW(p, n, s, last, init, bestp);                                        \
        return row_swapped_blocks(ROW, p, n, s, (int)sizeof(ET), last, init, bestp);       \
    }

#define DEFINE_DTYPE(ENUM, NAME, ET, KT, KMAX)                                \
    DEFINE_ROW(row_max_##NAME, ET, KT, KMAX, argext_keymax_##NAME)            \
    DEFINE_ROW(row_min_##NAME, ET, KT, KMAX, argext_keymin_##NAME)            \
    DEFINE_COLS(cols_max_##NAME, ET, KT, argext_keymax_##NAME)                \
    DEFINE_COLS(cols_min_##NAME, ET, KT, argext_keymin_##NAME)                \
    DEFINE_ROWS(rows_max_##NAME, row_max_##NAME, KT)                          \
    DEFINE_ROWS(rows_min_##NAME, row_min_##NAME, KT)                          \
    DEFINE_ROW(row_nanmax_##NAME, ET, KT, KMAX, argext_keynanmax_##NAME)      \
    DEFINE_ROW(row_nanmin_##NAME, ET, KT, KMAX, argext_keynanmin_##NAME)      \
    DEFINE_COLS(cols_nanmax_##NAME, ET, KT, argext_keynanmax_##NAME)          \
    DEFINE_COLS(cols_nanmin_##NAME, ET, KT, argext_keynanmin_##NAME)          \
    DEFINE_ROWS(rows_nanmax_##NAME, row_nanmax_##NAME, KT)                    \
    DEFINE_ROWS(rows_nanmin_##NAME, row_nanmin_##NAME, KT)                    \
    DEFINE_ROW_SWAPPED(row_swapped_max_##NAME, row_max_##NAME, ET)            \
    DEFINE_ROW_SWAPPED(row_swapped_min_##NAME, row_min_##NAME, ET)            \
    DEFINE_ROW_SWAPPED(row_swapped_nanmax_##NAME, row_nanmax_##NAME, ET)      \
    DEFINE_ROW_SWAPPED(row_swapped_nanmin_##NAME, row_nanmin_##NAME, ET)
ARGEXT_DTYPES(DEFINE_DTYPE)

#define ENTRY(ENUM, NAME, SHAPE, OP) [ARGEXT_##ENUM] = SHAPE##_##OP##_##NAME,
#define ROW_MAX(ENUM, NAME, ET, KT, KMAX) ENTRY(ENUM, NAME, row, max)
#define ROW_MIN(ENUM, NAME, ET, KT, KMAX) ENTRY(ENUM, NAME, row, min)
#define ROW_NANMAX(ENUM, NAME, ET, KT, KMAX) ENTRY(ENUM, NAME, row, nanmax)
#define ROW_NANMIN(ENUM, NAME, ET, KT, KMAX) ENTRY(ENUM, NAME, row, nanmin)
#define ROW_SWAPPED_MAX(ENUM, NAME, ET, KT, KMAX) ENTRY(ENUM, NAME, row_swapped, max)
#define ROW_SWAPPED_MIN(ENUM, NAME, ET, KT, KMAX) ENTRY(ENUM, NAME, row_swapped, min)
#define ROW_SWAPPED_NANMAX(ENUM, NAME, ET, KT, KMAX) ENTRY(ENUM, NAME, row_swapped, nanmax)
#define ROW_SWAPPED_NANMIN(ENUM, NAME, ET, KT, KMAX) ENTRY(ENUM, NAME, row_swapped, nanmin)
#define COLS_MAX(ENUM, NAME, ET, KT, KMAX) ENTRY(ENUM, NAME, cols, max)
#define COLS_MIN(ENUM, NAME, ET, KT, KMAX) ENTRY(ENUM, NAME, cols, min)
#define COLS_NANMAX(ENUM, NAME, ET, KT, KMAX) ENTRY(ENUM, NAME, cols, nanmax)
#define COLS_NANMIN(ENUM, NAME, ET, KT, KMAX) ENTRY(ENUM, NAME, cols, nanmin)
#define ROWS_MAX(ENUM, NAME, ET, KT, KMAX) ENTRY(ENUM, NAME, rows, max)
#define ROWS_MIN(ENUM, NAME, ET, KT, KMAX) ENTRY(ENUM, NAME, rows, min)
#define ROWS_NANMAX(ENUM, NAME, ET, KT, KMAX) ENTRY(ENUM, NAME, rows, nanmax)
#define ROWS_NANMIN(ENUM, NAME, ET, KT, KMAX) ENTRY(ENUM, NAME, rows, nanmin)
#define OPS_OF(SHAPE)                                                                   \
    {{ARGEXT_DTYPES(SHAPE##_MAX)}, {ARGEXT_DTYPES(SHAPE##_MIN)},                        \
     {ARGEXT_DTYPES(SHAPE##_NANMAX)}, {ARGEXT_DTYPES(SHAPE##_NANMIN)}}

/* No column kernel reads byte-swapped input in place here. */
static int cols_swapped_none(const char *p, int64_t rows, int64_t rs, int64_t w, int64_t bn,
                             int64_t cs, int64_t f0, int last, int init, void *best, int64_t *idx)
{
    (void)p, (void)rows, (void)rs, (void)w, (void)bn, (void)cs, (void)f0, (void)last, (void)init;
    (void)best, (void)idx;
    return 0;
}
#define COLS_SWAPPED_NONE(ENUM, NAME, ET, KT, KMAX) [ARGEXT_##ENUM] = cols_swapped_none,

const argext_kernel_table argext_kernels_baseline = {
    .row = OPS_OF(ROW),
    .row_swapped = OPS_OF(ROW_SWAPPED),
    .cols = OPS_OF(COLS),
    .cols_swapped = {{ARGEXT_DTYPES(COLS_SWAPPED_NONE)}, {ARGEXT_DTYPES(COLS_SWAPPED_NONE)},
                     {ARGEXT_DTYPES(COLS_SWAPPED_NONE)}, {ARGEXT_DTYPES(COLS_SWAPPED_NONE)}},
    .rows = OPS_OF(ROWS),
    .swap = swap_block,
};
