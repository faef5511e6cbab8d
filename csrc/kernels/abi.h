/*
 * abi.h - the kernel ABI: the kernel shapes every ISA level provides for
 * every operator (ops.h) and dtype (dtypes.h), and the table of them that
 * the engine calls (kernels.h gives the table in use).
 *
 * `last` selects the last occurrence by a non-strict update instead of a
 * strict one, never by flipping. Row and column kernels fold into a running
 * best, so that the engine can split a reduction into pieces visited in
 * increasing index order: with init == 0 they start from the best passed in.
 * Bests are keys (dtypes.h), in the key type of the dtype.
 */
#ifndef ARGEXT_ABI_H
#define ARGEXT_ABI_H

#include <stdint.h>

#include "argext.h"
#include "kernels/ops.h"
#include "kernels/topk.h"

/*
 * Row kernel: n >= 1 elements at p, byte stride `stride`. Returns the index
 * in the row of the element that becomes the best (and stores its key in
 * *best), or -1 when no element beats the incoming *best.
 */
typedef int64_t (*argext_row_kernel)(const char *p, int64_t n, int64_t stride, int last,
                                     int init, void *best);

/*
 * Column kernel: bn columns (byte stride cs) folded over `rows` rows (byte
 * stride rs) starting at p. Row r has flat index f0 + r * weight. best[j] holds
 * column j's key (key type, itemsize bytes each) and idx[j] its flat index;
 * init == 1 makes row 0 their starting value. stream == 1: idx is not read
 * again soon (a large output, each index written once): indices the kernel
 * writes once may go by non-temporal stores (fenced before it returns).
 * row_of: bn bytes the kernel may use as work.
 */
typedef void (*argext_cols_kernel)(const char *p, int64_t rows, int64_t rs, int64_t weight,
                                   int64_t bn, int64_t cs, int64_t f0, int last, int init,
                                   int stream, void *best, int64_t *idx, int8_t *row_of);

/*
 * The column kernel for input of the opposite byte order, read in place:
 * returns 1 when done, or 0, having touched nothing, for a layout it does
 * not read in place (the caller then swaps blocks into scratch).
 */
typedef int (*argext_cols_swapped_kernel)(const char *p, int64_t rows, int64_t rs, int64_t weight,
                                          int64_t bn, int64_t cs, int64_t f0, int last, int init,
                                          int stream, void *best, int64_t *idx, int8_t *row_of);

/*
 * Column fold query: whether the column kernel folds bn contiguous columns
 * over `rows` rows (byte stride rs) without asking memory ahead, where the
 * data lies past the cache and the hardware prefetchers follow long runs of
 * each row alone. The engine then keeps such runs however many rows
 * (run.c).
 */
typedef int (*argext_cols_unasked_query)(int64_t rows, int64_t rs, int64_t bn);

/*
 * Many-rows kernel: `count` independent whole rows (row k starts at
 * p + k * ps; n >= 1 elements, byte stride s). Writes each row's best index
 * to idx[k]. It is the row kernel with init == 1 per row, batched so that
 * short rows (1M rows of 16) pay no per-row call or set-up.
 */
typedef void (*argext_rows_kernel)(const char *p, int64_t count, int64_t ps, int64_t n,
                                   int64_t s, int last, int64_t *idx);

/*
 * Swap kernel (byteswap.h): rows x n elements of `itemsize` bytes (byte
 * strides rs, s) of the opposite byte order into dst, C-contiguous in native
 * order. ahead: the byte distance from this block to the one the caller
 * likely swaps next, prefetched meanwhile (a hint: it may lie past the end).
 */
typedef void (*argext_swap_kernel)(unsigned char *dst, const char *src, int64_t rows, int64_t rs,
                                   int64_t n, int64_t s, int itemsize, int64_t ahead);

/*
 * Transpose kernel (transpose.h): rows x n elements of `itemsize` bytes
 * (rows at byte stride rs, each one's elements contiguous) into dst, element
 * e of row b at dst + (e * ld + b) * itemsize (ld >= rows), bytes as they
 * are: TopK's tiles of short rows, which its column kernels then take.
 * ahead: the byte distance to the rows the caller likely transposes next,
 * prefetched meanwhile (a hint: it may lie past the end).
 */
typedef void (*argext_transpose_kernel)(char *dst, int64_t ld, const char *src, int64_t rows,
                                        int64_t rs, int64_t n, int itemsize, int64_t ahead);

/*
 * TopK scan kernel: offers the n >= 1 elements at p (byte stride s, maybe
 * negative) to the candidate set (topk.h), element j with index i0 + j, in
 * increasing index order; its instances are TopK's two orders (ops.h).
 */
typedef void (*argext_topk_kernel)(const char *p, int64_t n, int64_t s, int64_t i0,
                                   argext_topk_set *set);

/*
 * TopK column kernel: the k best (1 <= k <= ARGEXT_TOPK_COLS_K <= rows) of
 * each of bn columns (byte stride cs) over `rows` rows (byte stride rs,
 * maybe negative) from p. Writes column j's rows, in rank order (key, then
 * lower row), to idx[t * ld + j], t < k (ld >= bn). `work` holds
 * 2 * k * ld int64 places; its instances are TopK's two orders (ops.h).
 */
typedef void (*argext_topk_cols_kernel)(const char *p, int64_t rows, int64_t rs, int64_t bn,
                                        int64_t cs, int64_t k, int64_t ld, int64_t *idx,
                                        void *work);

/*
 * TopK register kernel: the k best (1 <= k <= rows) of each of bn
 * contiguous columns (byte stride the itemsize) over `rows` rows (byte
 * stride rs, maybe negative) from p, written out: rank t's values (native
 * order, byte stride the itemsize) at values + t * vstep, its int64 rows at
 * indices + t * istep (byte stride 8); ranks best first (sorted) or in
 * increasing row order. stream: the outputs are too large for the caches
 * (stores that bypass them, where the ISA has such). Returns 0, having
 * written nothing, where it does not apply (the caller then runs the
 * column kernel); its instances are TopK's two orders (ops.h).
 */
typedef int (*argext_topk_regs_kernel)(const char *p, int64_t rows, int64_t rs, int64_t bn,
                                       int64_t k, int sorted, char *values, int64_t vstep,
                                       char *indices, int64_t istep, int stream);

typedef struct argext_kernel_table {
    argext_row_kernel row[ARGEXT_OP_COUNT][ARGEXT_DTYPE_COUNT];
    /* The row kernel for input of the opposite byte order (itemsize > 1). */
    argext_row_kernel row_swapped[ARGEXT_OP_COUNT][ARGEXT_DTYPE_COUNT];
    argext_cols_kernel cols[ARGEXT_OP_COUNT][ARGEXT_DTYPE_COUNT];
    argext_cols_swapped_kernel cols_swapped[ARGEXT_OP_COUNT][ARGEXT_DTYPE_COUNT];
    argext_cols_unasked_query cols_unasked[ARGEXT_DTYPE_COUNT];
    argext_rows_kernel rows[ARGEXT_OP_COUNT][ARGEXT_DTYPE_COUNT];
    argext_swap_kernel swap;
    argext_transpose_kernel transpose;
    argext_topk_kernel topk[ARGEXT_TOPK_OP_COUNT][ARGEXT_DTYPE_COUNT];
    /* The TopK scan kernel for input of the opposite byte order. */
    argext_topk_kernel topk_swapped[ARGEXT_TOPK_OP_COUNT][ARGEXT_DTYPE_COUNT];
    argext_topk_cols_kernel topk_cols[ARGEXT_TOPK_OP_COUNT][ARGEXT_DTYPE_COUNT];
    /* The TopK column kernel for input of the opposite byte order. */
    argext_topk_cols_kernel topk_cols_swapped[ARGEXT_TOPK_OP_COUNT][ARGEXT_DTYPE_COUNT];
    /* Native byte order only: byte-swapped input takes the column kernel. */
    argext_topk_regs_kernel topk_regs[ARGEXT_TOPK_OP_COUNT][ARGEXT_DTYPE_COUNT];
} argext_kernel_table;

#endif /* ARGEXT_ABI_H */
