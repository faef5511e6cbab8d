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
 * X(ENUM, name, element type, key type, key maximum)
 * Float elements are carried as unsigned bit patterns of their width.
 */
#define ARGEXT_DTYPES(X)                                        \
    X(FLOAT16, float16, uint16_t, int16_t, INT16_MAX)           \
    X(BFLOAT16, bfloat16, uint16_t, int16_t, INT16_MAX)         \
    X(FLOAT32, float32, uint32_t, int32_t, INT32_MAX)           \
    X(FLOAT64, float64, uint64_t, int64_t, INT64_MAX)           \
    X(INT8, int8, int8_t, int8_t, INT8_MAX)                     \
    X(INT16, int16, int16_t, int16_t, INT16_MAX)                \
    X(INT32, int32, int32_t, int32_t, INT32_MAX)                \
    X(INT64, int64, int64_t, int64_t, INT64_MAX)                \
    X(UINT8, uint8, uint8_t, uint8_t, UINT8_MAX)                \
    X(UINT16, uint16, uint16_t, uint16_t, UINT16_MAX)           \
    X(UINT32, uint32, uint32_t, uint32_t, UINT32_MAX)           \
    X(UINT64, uint64, uint64_t, uint64_t, UINT64_MAX)

/* Float layouts: magnitude mask, the bits of +infinity and of 1.0. */
#define ARGEXT_FLOAT16_MAG 0x7fffu
#define ARGEXT_FLOAT16_INF 0x7c00u
#define ARGEXT_FLOAT16_ONE 0x3c00u
#define ARGEXT_BFLOAT16_MAG 0x7fffu
#define ARGEXT_BFLOAT16_INF 0x7f80u
#define ARGEXT_BFLOAT16_ONE 0x3f80u
#define ARGEXT_FLOAT32_MAG 0x7fffffffu
#define ARGEXT_FLOAT32_INF 0x7f800000u
#define ARGEXT_FLOAT32_ONE 0x3f800000u
#define ARGEXT_FLOAT64_MAG 0x7fffffffffffffffull
#define ARGEXT_FLOAT64_INF 0x7ff0000000000000ull
#define ARGEXT_FLOAT64_ONE 0x3ff0000000000000ull

/* Element size in bytes of a valid dtype (flags removed), 0 otherwise. */
static inline size_t argext_itemsize(int dtype)
{
#define ARGEXT_SIZE_CASE(ENUM, NAME, ET, KT, KMAX) case ARGEXT_##ENUM: return sizeof(ET);
    switch (dtype) {
    ARGEXT_DTYPES(ARGEXT_SIZE_CASE)
    default: return 0;
    }
#undef ARGEXT_SIZE_CASE
}

/* The bits of 1.0 in a float dtype, as an unsigned integer of its width;
   0 for the integer dtypes. */
static inline uint64_t argext_one_bits(int dtype)
{
    switch (dtype) {
    case ARGEXT_FLOAT16: return ARGEXT_FLOAT16_ONE;
    case ARGEXT_BFLOAT16: return ARGEXT_BFLOAT16_ONE;
    case ARGEXT_FLOAT32: return ARGEXT_FLOAT32_ONE;
    case ARGEXT_FLOAT64: return ARGEXT_FLOAT64_ONE;
    default: return 0;
    }
}

/* Branch-free (selects by masks), so that compilers vectorise loops over them. */
#define ARGEXT_FLOAT_KEYS(NAME, UT, KT, KMAX, MAG, INF)                            \
    static inline KT argext_key_##NAME(UT b)                                       \
    {                                                                              \
        KT m = (KT)(b & (MAG));                                                    \
        KT s = (KT) - (KT)(b >> (8 * sizeof(UT) - 1)); /* all ones if negative */  \
        return (KT)((m ^ s) - s);                                                  \
    }                                                                              \
    static inline KT argext_nan_to_max_##NAME(UT b, KT k)                          \
    {                                                                              \
        KT nan = (KT) - (KT)((UT)(b & (MAG)) > (INF));                             \
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
        KT nan = (KT) - (KT)((UT)(b & (MAG)) > (INF));                             \
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
    static inline int argext_is_nan_##NAME(UT b) { return (UT)(b & (MAG)) > (INF); }

#define ARGEXT_INT_KEYS(NAME, T)                                                   \
    static inline T argext_keymax_##NAME(T v) { return v; }                       \
    static inline T argext_keymin_##NAME(T v) { return (T)~v; }                   \
    static inline T argext_keynanmax_##NAME(T v) { return v; }                    \
    static inline T argext_keynanmin_##NAME(T v) { return (T)~v; }                \
    static inline int argext_is_nan_##NAME(T v) { return (void)v, 0; }

ARGEXT_FLOAT_KEYS(float16, uint16_t, int16_t, INT16_MAX, ARGEXT_FLOAT16_MAG, ARGEXT_FLOAT16_INF)
ARGEXT_FLOAT_KEYS(bfloat16, uint16_t, int16_t, INT16_MAX, ARGEXT_BFLOAT16_MAG, ARGEXT_BFLOAT16_INF)
ARGEXT_FLOAT_KEYS(float32, uint32_t, int32_t, INT32_MAX, ARGEXT_FLOAT32_MAG, ARGEXT_FLOAT32_INF)
ARGEXT_FLOAT_KEYS(float64, uint64_t, int64_t, INT64_MAX, ARGEXT_FLOAT64_MAG, ARGEXT_FLOAT64_INF)
ARGEXT_INT_KEYS(int8, int8_t)
ARGEXT_INT_KEYS(int16, int16_t)
ARGEXT_INT_KEYS(int32, int32_t)
ARGEXT_INT_KEYS(int64, int64_t)
ARGEXT_INT_KEYS(uint8, uint8_t)
ARGEXT_INT_KEYS(uint16, uint16_t)
ARGEXT_INT_KEYS(uint32, uint32_t)
ARGEXT_INT_KEYS(uint64, uint64_t)

#endif /* ARGEXT_DTYPES_H */
