/*
 * input.c - the fuzzer's bytes as draws, and element values decoded and
 * encoded by the harness itself (sharing no code with argext's kernels).
 */
#include <math.h>
#include <string.h>

#include "fuzz_api.h"

/* ---- the input, read a byte at a time (zeros once it runs out) ---------------------- */

unsigned byte_of(source *s)
{
    if (s->n == 0)
        return 0;
    s->n--;
    return *s->p++;
}

int pick(source *s, int bound) { return (int)(byte_of(s) % (unsigned)bound); }

int64_t pick_in(source *s, int64_t lo, int64_t hi) { return lo + pick(s, (int)(hi - lo + 1)); }

/* ---- element values, independent of argext ------------------------------------------ */

const size_t itemsizes[ARGEXT_DTYPE_COUNT] = {2, 2, 4, 8, 1, 2, 4, 8, 1, 2, 4, 8};

int is_float(int dt) { return dt <= ARGEXT_FLOAT64; }

static uint64_t load_bits(const unsigned char *p, size_t size, int swapped)
{
    unsigned char b[8];
    for (size_t k = 0; k < size; k++)
        b[k] = p[swapped ? size - 1 - k : k];
    uint64_t bits = 0;
    for (size_t k = 0; k < size; k++) /* native order: the byte at the lowest address first */
        bits |= (uint64_t)b[k] << (8 * k);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    bits = 0;
    for (size_t k = 0; k < size; k++)
        bits = (bits << 8) | b[k];
#endif
    return bits;
}

static double half_to_double(uint64_t h)
{
    int sign = (int)(h >> 15) & 1, exp = (int)(h >> 10) & 31, man = (int)h & 1023;
    double v = exp == 0 ? ldexp(man, -24) : exp == 31 ? (man ? NAN : INFINITY)
                                                      : ldexp(man + 1024, exp - 25);
    return sign ? -v : v;
}

static double float32_to_double(uint32_t w)
{
    float f;
    memcpy(&f, &w, sizeof f);
    return f;
}

value load_value(const unsigned char *p, int dt, int swapped)
{
    uint64_t bits = load_bits(p, itemsizes[dt], swapped);
    value v = {0, 0, 0, 0};
    switch (dt) {
    case ARGEXT_FLOAT16: v.f = half_to_double(bits); break;
    case ARGEXT_BFLOAT16: v.f = float32_to_double((uint32_t)bits << 16); break;
    case ARGEXT_FLOAT32: v.f = float32_to_double((uint32_t)bits); break;
    case ARGEXT_FLOAT64: memcpy(&v.f, &bits, sizeof v.f); break;
    case ARGEXT_INT8: v.i = (int8_t)bits; break;
    case ARGEXT_INT16: v.i = (int16_t)bits; break;
    case ARGEXT_INT32: v.i = (int32_t)bits; break;
    case ARGEXT_INT64: v.i = (int64_t)bits; break;
    default: v.u = bits; break;
    }
    v.nan = is_float(dt) && v.f != v.f;
    return v;
}

/* -1, 0, 1: a below, equal to (-0.0 == +0.0), above b; neither is NaN. */
int compare(value a, value b, int dt)
{
    if (is_float(dt))
        return (a.f > b.f) - (a.f < b.f);
    if (dt <= ARGEXT_INT64)
        return (a.i > b.i) - (a.i < b.i);
    return (a.u > b.u) - (a.u < b.u);
}

/* The special values drawn as elements, by dtype: ties, signed zeros, NaN, infinities. */
void store_special(unsigned char *p, int dt, int swapped, int which)
{
    static const uint64_t f16[8] = {0x0000, 0x8000, 0x3c00, 0xbc00,
                                    0x7e00, 0x7c00, 0xfc00, 0x3c00};
    static const uint64_t bf16[8] = {0x0000, 0x8000, 0x3f80, 0xbf80,
                                     0x7fc0, 0x7f80, 0xff80, 0x3f80};
    static const uint64_t f32[8] = {0, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x7fc00000u,
                                    0x7f800000u, 0xff800000u, 0x3f800000u};
    static const uint64_t f64[8] = {0, 0x8000000000000000u, 0x3ff0000000000000u,
                                    0xbff0000000000000u, 0x7ff8000000000000u,
                                    0x7ff0000000000000u, 0xfff0000000000000u,
                                    0x3ff0000000000000u};
    static const uint64_t ints[8] = {0, 1, 2, (uint64_t)-1, 0x7f, 0x80, 0x7fffffffffffffffu,
                                     0x8000000000000000u};
    uint64_t bits = dt == ARGEXT_FLOAT16    ? f16[which]
                    : dt == ARGEXT_BFLOAT16 ? bf16[which]
                    : dt == ARGEXT_FLOAT32  ? f32[which]
                    : dt == ARGEXT_FLOAT64  ? f64[which]
                                            : ints[which];
    size_t size = itemsizes[dt];
    for (size_t k = 0; k < size; k++) {
        unsigned char b = (unsigned char)(bits >> (8 * k)); /* little-endian byte k */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        p[swapped ? k : size - 1 - k] = b;
#else
        p[swapped ? size - 1 - k : k] = b;
#endif
    }
}
