/*
 * table.h - a kernel table's initializer, for the baseline and for each
 * SIMD level: `.row = ARGEXT_TABLE_OPS(row)` gives row[op][dtype] =
 * KERNEL(op, row, dtype) for every operator and dtype (an integer's nan
 * operators its plain ones: ops.h), KERNEL being the includer's naming of
 * its kernels; ARGEXT_TABLE_TOPK_OPS the same for
 * TopK's two operators (ops.h).
 */
#ifndef ARGEXT_TABLE_H
#define ARGEXT_TABLE_H

#include "kernels/dtypes.h"
#include "kernels/ops.h"

#define ARGEXT_TABLE_OPS(SHAPE) {ARGEXT_OPS_WITH(ARGEXT_TABLE_OP, SHAPE)}
#define ARGEXT_TABLE_TOPK_OPS(SHAPE) {ARGEXT_TOPK_OPS_WITH(ARGEXT_TABLE_OP, SHAPE)}
#define ARGEXT_TABLE_OP(SHAPE, ENUM, NAME) \
    [ARGEXT_OP_##ENUM] = {ARGEXT_DTYPES_WITH(ARGEXT_TABLE_DTYPE, (NAME, SHAPE))},
#define ARGEXT_TABLE_DTYPE(OP_SHAPE, ENUM, NAME, ET, KT, KMAX, LANE, KIND, ...) \
    [ARGEXT_##ENUM] = ARGEXT_TABLE_KERNEL(ARGEXT_TABLE_UNPAREN OP_SHAPE, NAME, KIND),
#define ARGEXT_TABLE_UNPAREN(OP, SHAPE) OP, SHAPE
#define ARGEXT_TABLE_KERNEL(OP_SHAPE, NAME, KIND) ARGEXT_TABLE_KERNEL2(OP_SHAPE, NAME, KIND)
#define ARGEXT_TABLE_KERNEL2(OP, SHAPE, NAME, KIND) ARGEXT_TABLE_KERNEL3(ARGEXT_KIND_OP(KIND, OP), SHAPE, NAME)
#define ARGEXT_TABLE_KERNEL3(OP, SHAPE, NAME) KERNEL(OP, SHAPE, NAME)

#endif /* ARGEXT_TABLE_H */
