/*
 * table_init.h - the body of a kernel table's initializer (table.h), for
 * the baseline and for each SIMD level:
 *   const argext_kernel_table argext_kernels_<isa> = {
 *   #include "kernels/table_init.h"
 *   };
 * with KERNEL(op, shape, dtype) naming the includer's kernels,
 * COLS_SWAPPED_OPS the in-place byte-swapped column kernels (the baseline
 * has none), COLS_UNASKED(ENUM, ...) a dtype's column fold query,
 * TOPK_REGS_OPS(shape) the TopK register kernels (the baseline
 * has none), SWAP_KERNEL its swap kernel and TRANSPOSE_KERNEL its
 * transpose kernel.
 */
    .row = ARGEXT_TABLE_OPS(row),
    .row_swapped = ARGEXT_TABLE_OPS(row_swapped),
    .cols = ARGEXT_TABLE_OPS(cols),
    .cols_swapped = COLS_SWAPPED_OPS,
    .cols_unasked = {ARGEXT_DTYPES(COLS_UNASKED)},
    .rows = ARGEXT_TABLE_OPS(rows),
    .swap = SWAP_KERNEL,
    .transpose = TRANSPOSE_KERNEL,
    .topk = ARGEXT_TABLE_TOPK_OPS(topk),
    .topk_swapped = ARGEXT_TABLE_TOPK_OPS(topk_swapped),
    .topk_cols = ARGEXT_TABLE_TOPK_OPS(topk_cols),
    .topk_cols_swapped = ARGEXT_TABLE_TOPK_OPS(topk_cols_swapped),
    .topk_regs = TOPK_REGS_OPS(topk_regs),
