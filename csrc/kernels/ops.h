/*
 * ops.h - the operators, as the kernels' keys see them (dtypes.h).
 *
 * Keys make ArgMin an ArgMax, so every kernel comes in one instance per
 * operator that differs only in its key function. NaN is the top key of MAX
 * and MIN (it wins); NANMAX and NANMIN count it as -inf and +inf (NumPy's
 * nanargmax and nanargmin). (One integer copy per lane width, op and kind
 * given at run time, compiled avx2.c in 30% less time but scanned integers
 * in cache at 0.70-0.79x on Zen 3: gcc split its loops on the kind, and
 * signed ArgMax's keys cost an XOR a vector.)
 *
 * X(ENUM, name): the kernels' symbols carry the name (argext_<name>_...);
 * ARGEXT_OPS_WITH(X, C) passes C through as X's first argument.
 */
#ifndef ARGEXT_OPS_H
#define ARGEXT_OPS_H

#define ARGEXT_OPS_WITH(X, C) X(C, MAX, argmax) X(C, MIN, argmin) X(C, NANMAX, nanargmax) X(C, NANMIN, nanargmin)
#define ARGEXT_OPS(X) ARGEXT_OPS_WITH(ARGEXT_OP_CALL, X)
#define ARGEXT_OP_CALL(X, ...) X(__VA_ARGS__)

enum {
#define ARGEXT_OP_ENUM(ENUM, NAME) ARGEXT_OP_##ENUM,
    ARGEXT_OPS(ARGEXT_OP_ENUM)
#undef ARGEXT_OP_ENUM
    ARGEXT_OP_COUNT
};
/* TopK's orders: largest by ArgMax's keys, smallest by ArgMin's (NaN first
   in both), so its kernels are the first two operators' only. */
#define ARGEXT_TOPK_OPS_WITH(X, C) X(C, MAX, argmax) X(C, MIN, argmin)
#define ARGEXT_TOPK_OP_COUNT 2
/* The kernels an operator's table entry holds for a dtype kind (table.h): an
   integer has no NaN, so its nanargmax and nanargmin are its argmax and
   argmin, not instances of their own (each would cost the build as much). */
#define ARGEXT_KIND_OP(KIND, OP) ARGEXT_KIND_OP_##KIND##_##OP
#define ARGEXT_KIND_OP_FLOAT_argmax argmax
#define ARGEXT_KIND_OP_FLOAT_argmin argmin
#define ARGEXT_KIND_OP_FLOAT_nanargmax nanargmax
#define ARGEXT_KIND_OP_FLOAT_nanargmin nanargmin
#define ARGEXT_KIND_OP_SIGNED_argmax argmax
#define ARGEXT_KIND_OP_SIGNED_argmin argmin
#define ARGEXT_KIND_OP_SIGNED_nanargmax argmax
#define ARGEXT_KIND_OP_SIGNED_nanargmin argmin
#define ARGEXT_KIND_OP_UNSIGNED_argmax argmax
#define ARGEXT_KIND_OP_UNSIGNED_argmin argmin
#define ARGEXT_KIND_OP_UNSIGNED_nanargmax argmax
#define ARGEXT_KIND_OP_UNSIGNED_nanargmin argmin
#define ARGEXT_OP_IS_MIN(op) ((op) == ARGEXT_OP_MIN || (op) == ARGEXT_OP_NANMIN)
#define ARGEXT_OP_SKIPS_NAN(op) ((op) == ARGEXT_OP_NANMAX || (op) == ARGEXT_OP_NANMIN)

#endif /* ARGEXT_OPS_H */
