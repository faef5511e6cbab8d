/*
 * dtypes.h - the one list of element types, and their comparison keys.
 *
 * Every kernel compares integer keys, never the elements themselves:
 *  - integers are their own key for ArgMax and their complement (~v, which
 *    reverses order without overflow) for ArgMin;
 *  - floats (float16/bfloat16/float32/float64, read as bits) map
 *    sign-magnitude onto two's complement, so -0.0 and +0.0 share key 0;
 *    NaN maps to the key type's maximum for both operators, so the first
 *    (or last) NaN wins, as the ONNX reference and NumPy do.
 * Both operators therefore reduce to "largest key", and a key equal to the
 * type's maximum can never be beaten: first-occurrence scans stop there.
 */
#ifndef ARGEXT_DTYPES_H
#define ARGEXT_DTYPES_H

#include <stdint.h>
#include <string.h>

#include "argext.h"

/*
 * X(ENUM, name, element type, key type, key maximum, lane, kind, +inf, one)
 *   lane  the SIMD template's lane type (kernels/simd/template.h): s8 .. s64;
 *   kind  FLOAT (carried as the unsigned bit pattern of its width), SIGNED
 *         or UNSIGNED;
 *   +inf  the bits of +infinity (floats; 0 for integers), one the bits of 1.
 * A float's magnitude mask (every bit but the sign) is its key maximum.
 */
#define ARGEXT_DTYPES_WITH(X, C)                                                        \
    X(C, FLOAT16, float16, uint16_t, int16_t, INT16_MAX, s16, FLOAT, 0x7c00u, 0x3c00u) \
    X(C, BFLOAT16, bfloat16, uint16_t, int16_t, INT16_MAX, s16, FLOAT, 0x7f80u, 0x3f80u) \
    X(C, FLOAT32, float32, uint32_t, int32_t, INT32_MAX, s32, FLOAT, 0x7f800000u, 0x3f800000u) \
    X(C, FLOAT64, float64, uint64_t, int64_t, INT64_MAX, s64, FLOAT, 0x7ff0000000000000u,   \
      0x3ff0000000000000u)                                                      \
    X(C, INT8, int8, int8_t, int8_t, INT8_MAX, s8, SIGNED, 0, 1)                   \
    X(C, INT16, int16, int16_t, int16_t, INT16_MAX, s16, SIGNED, 0, 1)             \
    X(C, INT32, int32, int32_t, int32_t, INT32_MAX, s32, SIGNED, 0, 1)             \
    X(C, INT64, int64, int64_t, int64_t, INT64_MAX, s64, SIGNED, 0, 1)             \
    X(C, UINT8, uint8, uint8_t, uint8_t, UINT8_MAX, s8, UNSIGNED, 0, 1)            \
    X(C, UINT16, uint16, uint16_t, uint16_t, UINT16_MAX, s16, UNSIGNED, 0, 1)      \
    X(C, UINT32, uint32, uint32_t, uint32_t, UINT32_MAX, s32, UNSIGNED, 0, 1)      \
    X(C, UINT64, uint64, uint64_t, uint64_t, UINT64_MAX, s64, UNSIGNED, 0, 1)

/* ARGEXT_DTYPES(X): X(ENUM, name, ...) for each dtype; ARGEXT_DTYPES_WITH(X,
   C): X(C, ENUM, name, ...), C passed through (kernels/table.h). */
#define ARGEXT_DTYPES(X) ARGEXT_DTYPES_WITH(ARGEXT_DTYPE_CALL, X)
#define ARGEXT_DTYPE_CALL(X, ...) X(__VA_ARGS__)

enum { ARGEXT_KIND_FLOAT, ARGEXT_KIND_SIGNED, ARGEXT_KIND_UNSIGNED };

/* Element size in bytes of a valid dtype (flags removed), 0 otherwise. */
static inline size_t argext_itemsize(int dtype)
{
#define ARGEXT_SIZE_CASE(ENUM, NAME, ET, KT, KMAX, LANE, KIND, INF, ONE) \
    case ARGEXT_##ENUM: return sizeof(ET);
    switch (dtype) {
    ARGEXT_DTYPES(ARGEXT_SIZE_CASE)
    default: return 0;
    }
#undef ARGEXT_SIZE_CASE
}

/* The bits of the value 1 in a valid dtype, as an unsigned integer of its
   width (Hardmax's output); 0 otherwise. */
static inline uint64_t argext_one_bits(int dtype)
{
#define ARGEXT_ONE_CASE(ENUM, NAME, ET, KT, KMAX, LANE, KIND, INF, ONE) \
    case ARGEXT_##ENUM: return ONE;
    switch (dtype) {
    ARGEXT_DTYPES(ARGEXT_ONE_CASE)
    default: return 0;
    }
#undef ARGEXT_ONE_CASE
}

/* Branch-free (selects by masks), so that compilers vectorise loops over them. */
#define ARGEXT_KEYS_FLOAT(NAME, UT, KT, KMAX, INF)                            \
    static inline KT argext_key_##NAME(UT b)                                       \
    {                                                                              \
        KT m = (KT)(b & (KMAX));                                                    \
        KT s = (KT) - (KT)(b >> (8 * sizeof(UT) - 1)); /* all ones if negative */  \
        return (KT)((m ^ s) - s);                                                  \
    }                                                                              \
    static inline KT argext_nan_to_max_##NAME(UT b, KT k)                          \
    {                                                                              \
        KT nan = (KT) - (KT)((UT)(b & (KMAX)) > (INF));                             \
        return (KT)(k ^ ((k ^ (KT)(KMAX)) & nan));                                 \
    }                                                                              \
    static inline KT argext_keymax_##NAME(UT b)                                    \
    {                                                                              \
        return argext_nan_to_max_##NAME(b, argext_key_##NAME(b));                  \
    }                                                                              \
    static inline KT argext_keymin_##NAME(UT b)                                    \
    {                                                                              \
        return argext_nan_to_max_##NAME(b, (KT)~argext_key_##NAME(b));             \
    }                                                                              \
    /* nanargmax/nanargmin, NumPy's rule: NaN counts as -inf (nanargmax) or   \
       +inf (nanargmin), the lowest key a number can have, so it wins only a     \
       slice of NaN and those infinities, at its first place. */                 \
    static inline KT argext_nan_to_##NAME(UT b, KT k, KT nan_key)                 \
    {                                                                              \
        KT nan = (KT) - (KT)((UT)(b & (KMAX)) > (INF));                             \
        return (KT)(k ^ ((k ^ nan_key) & nan));                                    \
    }                                                                              \
    static inline KT argext_keynanmax_##NAME(UT b)                                 \
    {                                                                              \
        return argext_nan_to_##NAME(b, argext_key_##NAME(b), (KT) - (KT)(INF));    \
    }                                                                              \
    static inline KT argext_keynanmin_##NAME(UT b)                                 \
    {                                                                              \
        return argext_nan_to_##NAME(b, (KT)~argext_key_##NAME(b), (KT) ~(KT)(INF)); \
    }                                                                              \
    static inline int argext_is_nan_##NAME(UT b) { return (UT)(b & (KMAX)) > (INF); }

#define ARGEXT_KEYS_INT(NAME, T)                                                   \
    static inline T argext_keymax_##NAME(T v) { return v; }                       \
    static inline T argext_keymin_##NAME(T v) { return (T)~v; }                   \
    static inline T argext_keynanmax_##NAME(T v) { return v; }                    \
    static inline T argext_keynanmin_##NAME(T v) { return (T)~v; }                \
    static inline int argext_is_nan_##NAME(T v) { return (void)v, 0; }

#define ARGEXT_KEYS_SIGNED(NAME, ET, KT, KMAX, INF) ARGEXT_KEYS_INT(NAME, ET)
#define ARGEXT_KEYS_UNSIGNED(NAME, ET, KT, KMAX, INF) ARGEXT_KEYS_INT(NAME, ET)
#define ARGEXT_KEYS(ENUM, NAME, ET, KT, KMAX, LANE, KIND, INF, ONE) \
    ARGEXT_KEYS_##KIND(NAME, ET, KT, KMAX, INF)
ARGEXT_DTYPES(ARGEXT_KEYS)

#endif /* ARGEXT_DTYPES_H */
