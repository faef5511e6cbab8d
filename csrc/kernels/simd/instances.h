/*
 * instances.h - the kernels of abi.h for every dtype (dtypes.h) and
 * operator (ops.h) at this ISA level, and its table argext_kernels_<isa>.
 *
 * Each instance is one call of its lane width's entry (entries.h) with the
 * dtype's and operator's constants, so that its code is specialised for
 * them; its symbol names it: argext_<op>_<shape>_<dtype>_<isa>, e.g.
 * argext_argmax_rows_float32_avx2.
 */

#define ISA_NAME_OF(ENUM) ARGEXT_ISA_NAME(ENUM)
#define KERNEL(OP, SHAPE, DTYPE) KERNEL_NAME(OP, SHAPE, DTYPE, ISA_NAME_OF(ISA))
#define KERNEL_NAME(OP, SHAPE, DTYPE, ISA_NAME) KERNEL_NAME2(OP, SHAPE, DTYPE, ISA_NAME)
#define KERNEL_NAME2(OP, SHAPE, DTYPE, ISA_NAME) argext_##OP##_##SHAPE##_##DTYPE##_##ISA_NAME
#define LANE_OF(LN, name) ARGEXT_LANE_PASTE(name, LN)
#define BASELINE_OF(SHAPE, OP, ENUM) argext_kernels_baseline.SHAPE[ARGEXT_OP_##OP][ARGEXT_##ENUM]

#define SIMD_KERNELS(ENUM, NAME, ITEMSIZE, LN, KIND, INF, OP, OPNAME)                                    \
    static int64_t KERNEL(OPNAME, row, NAME)(const char *p, int64_t n, int64_t s, int last,        \
                                             int init, void *best)                                 \
    {                                                                                              \
        if (!LANE_OF(LN, row_vectorised)(ARGEXT_KIND_##KIND, n, s))                                \
            return BASELINE_OF(row, OP, ENUM)(p, n, s, last, init, best);                          \
        return LANE_OF(LN, row_entry)(p, n, s, last, init, best, ARGEXT_OP_##OP,                   \
                                      ARGEXT_KIND_##KIND, INF, 0);                                 \
    }                                                                                              \
    static int64_t KERNEL(OPNAME, row_swapped, NAME)(const char *p, int64_t n, int64_t s,          \
                                                     int last, int init, void *best)               \
    {                                                                                              \
        if (!LANE_OF(LN, row_vectorised)(ARGEXT_KIND_##KIND, n, s))                                \
            return row_swapped_blocks(KERNEL(OPNAME, row, NAME), p, n, s, ITEMSIZE, last, init,    \
                                      best);                                                       \
        return LANE_OF(LN, row_entry)(p, n, s, last, init, best, ARGEXT_OP_##OP,                   \
                                      ARGEXT_KIND_##KIND, INF, 1);                                 \
    }                                                                                              \
    static void KERNEL(OPNAME, cols, NAME)(const char *p, int64_t rows, int64_t rs, int64_t weight, \
                                           int64_t bn, int64_t cs, int64_t f0, int last, int init, \
                                           int stream, void *best, int64_t *idx, int8_t *row_of)   \
    {                                                                                              \
        if (LANE_OF(LN, cols_vectorised)(ARGEXT_KIND_##KIND, bn, cs)) {                            \
            LANE_OF(LN, cols_fold)(p, rows, rs, weight, bn, f0, last, init, stream, (char *)best,  \
                                   idx, row_of, ARGEXT_OP_##OP, ARGEXT_KIND_##KIND, INF, 0);       \
            return;                                                                                \
        }                                                                                          \
        int64_t done = 0; /* narrow blocks' whole units, then the rows left by the baseline */     \
        if (LANE_OF(LN, cols_narrow_applies)(ARGEXT_KIND_##KIND, rows, rs, bn, cs))                \
            done = LANE_OF(LN, cols_narrow)(p, rows, weight, bn, f0, last, init, best, idx,        \
                                            ARGEXT_OP_##OP, ARGEXT_KIND_##KIND, INF);              \
        if (done < rows)                                                                           \
            BASELINE_OF(cols, OP, ENUM)(p + done * rs, rows - done, rs, weight, bn, cs,            \
                                        f0 + done * weight, last, init && !done, 0, best, idx,     \
                                        row_of);                                                   \
    }                                                                                              \
    static int KERNEL(OPNAME, cols_swapped, NAME)(const char *p, int64_t rows, int64_t rs,         \
                                                  int64_t weight, int64_t bn, int64_t cs,          \
                                                  int64_t f0, int last, int init, int stream,      \
                                                  void *best, int64_t *idx, int8_t *row_of)        \
    {                                                                                              \
        int vectorised = LANE_OF(LN, cols_vectorised)(ARGEXT_KIND_##KIND, bn, cs);                 \
        if (vectorised)                                                                            \
            LANE_OF(LN, cols_fold)(p, rows, rs, weight, bn, f0, last, init, stream, (char *)best,  \
                                   idx, row_of, ARGEXT_OP_##OP, ARGEXT_KIND_##KIND, INF, 1);       \
        return vectorised;                                                                         \
    }                                                                                              \
    static void KERNEL(OPNAME, rows, NAME)(const char *p, int64_t count, int64_t ps, int64_t n,    \
                                           int64_t s, int last, int64_t *idx)                      \
    {                                                                                              \
        LANE_OF(LN, rows_entry)(p, count, ps, n, s, last, idx, ARGEXT_OP_##OP, ARGEXT_KIND_##KIND, \
                                INF, BASELINE_OF(rows, OP, ENUM));                                 \
    }

/* The column runs query of a dtype (any operator: it depends on the lanes). */
#define SIMD_COLS_UNASKED(ENUM, NAME, ET, KT, KMAX, LN, KIND, INF, ONE)                \
    static int KERNEL(fold, cols_unasked, NAME)(int64_t rows, int64_t rs, int64_t bn)    \
    {                                                                                  \
        return LANE_OF(LN, cols_unasked)(rows, rs, bn, ARGEXT_KIND_##KIND);            \
    }
ARGEXT_DTYPES(SIMD_COLS_UNASKED)

/* nanargmax and nanargmin: instances of their own for floats only (ops.h:
   an integer's table entries are argmax's and argmin's). */
#define SIMD_NAN_KERNELS_FLOAT(ENUM, NAME, ITEMSIZE, LN, KIND, INF)                        \
    SIMD_KERNELS(ENUM, NAME, ITEMSIZE, LN, KIND, INF, NANMAX, nanargmax)                   \
    SIMD_KERNELS(ENUM, NAME, ITEMSIZE, LN, KIND, INF, NANMIN, nanargmin)
#define SIMD_NAN_KERNELS_SIGNED(...)
#define SIMD_NAN_KERNELS_UNSIGNED(...)

#define SIMD_DTYPE(ENUM, NAME, ET, KT, KMAX, LN, KIND, INF, ONE)  \
    SIMD_KERNELS(ENUM, NAME, (int)sizeof(ET), LN, KIND, INF, MAX, argmax)          \
    SIMD_KERNELS(ENUM, NAME, (int)sizeof(ET), LN, KIND, INF, MIN, argmin)          \
    SIMD_NAN_KERNELS_##KIND(ENUM, NAME, (int)sizeof(ET), LN, KIND, INF)
ARGEXT_DTYPES(SIMD_DTYPE)

/* TopK's scans: the threshold scan where it applies, else the baseline;
   the gather of a primed row (topk_gather_scan) a function of its own,
   out of the scan's loops (inlined there, it slowed k = 5 by 5%). SHAPE
   topk_swapped reads rows of the opposite byte order in place (SW), each
   vector swapped as it is loaded; one-byte lanes have no byte order, and
   their swapped kernel is the native one. */
#define SIMD_TOPK_SCAN(ENUM, NAME, ITEMSIZE, LN, KIND, INF, OP, OPNAME, SHAPE, SW)                \
    NOINLINE void KERNEL(OPNAME, SHAPE##_gather, NAME)(const char *p, int64_t n, int64_t s,       \
                                                       int64_t i0, argext_topk_set *set)          \
    {                                                                                             \
        (void)s; /* == ITEMSIZE */                                                                \
        LANE_OF(LN, topk_gather_scan)(p, n, i0, set, ARGEXT_OP_##OP, ARGEXT_KIND_##KIND, INF,     \
                                      SW && ITEMSIZE > 1);                                        \
    }                                                                                             \
    static void KERNEL(OPNAME, SHAPE, NAME)(const char *p, int64_t n, int64_t s, int64_t i0,      \
                                            argext_topk_set *set)                                 \
    {                                                                                             \
        if (SW && ITEMSIZE == 1)                                                                  \
            KERNEL(OPNAME, topk, NAME)(p, n, s, i0, set);                                         \
        else if (!LANE_OF(LN, topk_vectorised)(ARGEXT_KIND_##KIND, n, s))                         \
            BASELINE_OF(SHAPE, OP, ENUM)(p, n, s, i0, set);                                       \
        else                                                                                      \
            LANE_OF(LN, topk_scan)(p, n, i0, set, ARGEXT_OP_##OP, ARGEXT_KIND_##KIND, INF,        \
                                   SW && ITEMSIZE > 1, BASELINE_OF(SHAPE, OP, ENUM),              \
                                   KERNEL(OPNAME, SHAPE##_gather, NAME));                         \
    }
#define SIMD_TOPK(ENUM, NAME, ITEMSIZE, LN, KIND, INF, OP, OPNAME)                                \
    SIMD_TOPK_SCAN(ENUM, NAME, ITEMSIZE, LN, KIND, INF, OP, OPNAME, topk, 0)                      \
    SIMD_TOPK_SCAN(ENUM, NAME, ITEMSIZE, LN, KIND, INF, OP, OPNAME, topk_swapped, 1)              \
    SIMD_TOPK_COLS(ENUM, NAME, LN, KIND, INF, OP, OPNAME, topk_cols, 0)                           \
    SIMD_TOPK_COLS(ENUM, NAME, LN, KIND, INF, OP, OPNAME, topk_cols_swapped, 1)                   \
    SIMD_TOPK_REGS(NAME, LN, KIND, INF, OP, OPNAME, topk_regs)
/* TopK's column kernel where it applies, else the baseline's. */
#define SIMD_TOPK_COLS(ENUM, NAME, LN, KIND, INF, OP, OPNAME, SHAPE, SW)                          \
    static void KERNEL(OPNAME, SHAPE, NAME)(const char *p, int64_t rows, int64_t rs, int64_t bn,  \
                                            int64_t cs, int64_t k, int64_t ld, int64_t *idx,      \
                                            void *work)                                           \
    {                                                                                             \
        if (!LANE_OF(LN, topk_cols_vectorised)(ARGEXT_KIND_##KIND, bn, cs))                       \
            BASELINE_OF(SHAPE, OP, ENUM)(p, rows, rs, bn, cs, k, ld, idx, work);                  \
        else                                                                                      \
            LANE_OF(LN, topk_cols)(p, rows, rs, bn, k, ld, idx, work, ARGEXT_OP_##OP,             \
                                   ARGEXT_KIND_##KIND, INF, SW);                                  \
    }
/* TopK's register kernel (0 where it does not apply); native byte order only
   (byte-swapped input takes the column kernel: a rare layout, which would
   double the register kernel's many instances). */
#define SIMD_TOPK_REGS(NAME, LN, KIND, INF, OP, OPNAME, SHAPE)                                    \
    static int KERNEL(OPNAME, SHAPE, NAME)(const char *p, int64_t rows, int64_t rs, int64_t bn,   \
                                           int64_t k, int sorted, char *values, int64_t vstep,    \
                                           char *indices, int64_t istep, int stream)              \
    {                                                                                             \
        return LANE_OF(LN, topk_regs)(p, rows, rs, bn, k, sorted, values, vstep, indices, istep,  \
                                      stream, ARGEXT_OP_##OP, ARGEXT_KIND_##KIND, INF);           \
    }
#define SIMD_TOPK_DTYPE(ENUM, NAME, ET, KT, KMAX, LN, KIND, INF, ONE)        \
    SIMD_TOPK(ENUM, NAME, (int)sizeof(ET), LN, KIND, INF, MAX, argmax) \
    SIMD_TOPK(ENUM, NAME, (int)sizeof(ET), LN, KIND, INF, MIN, argmin)
ARGEXT_DTYPES(SIMD_TOPK_DTYPE)

#define ISA_TABLE_OF(ENUM) ISA_TABLE_NAME(ARGEXT_ISA_NAME(ENUM))
#define ISA_TABLE_NAME(ISA_NAME) ISA_TABLE_NAME2(ISA_NAME)
#define ISA_TABLE_NAME2(ISA_NAME) argext_kernels_##ISA_NAME

/* The swap kernel (byteswap.h), compiled for this level. */
#define SWAP_KERNEL SWAP_NAME(ISA_NAME_OF(ISA))
#define SWAP_NAME(ISA_NAME) SWAP_NAME2(ISA_NAME)
#define SWAP_NAME2(ISA_NAME) argext_byteswap_##ISA_NAME
static void SWAP_KERNEL(unsigned char *dst, const char *src, int64_t rows, int64_t rs,
                                        int64_t n, int64_t s, int itemsize, int64_t ahead)
{
    swap_block(dst, src, rows, rs, n, s, itemsize, ahead);
}

/* The transpose kernel (simd/transpose.h), by the lanes of the itemsize. */
#define TRANSPOSE_KERNEL TRANSPOSE_NAME(ISA_NAME_OF(ISA))
#define TRANSPOSE_NAME(ISA_NAME) TRANSPOSE_NAME2(ISA_NAME)
#define TRANSPOSE_NAME2(ISA_NAME) argext_transpose_##ISA_NAME
static void TRANSPOSE_KERNEL(char *dst, int64_t ld, const char *src, int64_t rows, int64_t rs,
                             int64_t n, int itemsize, int64_t ahead)
{
    if (itemsize == 1)
        transpose_s8(dst, ld, src, rows, rs, n, ahead);
    else if (itemsize == 2)
        transpose_s16(dst, ld, src, rows, rs, n, ahead);
    else if (itemsize == 4)
        transpose_s32(dst, ld, src, rows, rs, n, ahead);
    else
        transpose_s64(dst, ld, src, rows, rs, n, ahead);
}

#define COLS_SWAPPED_OPS ARGEXT_TABLE_OPS(cols_swapped)
#define COLS_UNASKED(ENUM, NAME, ...) [ARGEXT_##ENUM] = KERNEL(fold, cols_unasked, NAME),
#define TOPK_REGS_OPS(SHAPE) ARGEXT_TABLE_TOPK_OPS(SHAPE)
const argext_kernel_table ISA_TABLE_OF(ISA) = {
#include "kernels/table_init.h"
};
