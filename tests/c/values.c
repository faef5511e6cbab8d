/*
 * values.c - elements decoded the reference's own way (double, int64 or
 * uint64 values, sharing nothing with the kernels), and random elements.
 */
#include <math.h>
#include <string.h>

#include "driver.h"

/* The dtype facts, written out here rather than read from the library: the
   driver checks argext_dtype_size against them. */
static const size_t SIZES[ARGEXT_DTYPE_COUNT] = {
    [ARGEXT_FLOAT16] = 2, [ARGEXT_BFLOAT16] = 2, [ARGEXT_FLOAT32] = 4, [ARGEXT_FLOAT64] = 8,
    [ARGEXT_INT8] = 1,    [ARGEXT_INT16] = 2,    [ARGEXT_INT32] = 4,   [ARGEXT_INT64] = 8,
    [ARGEXT_UINT8] = 1,   [ARGEXT_UINT16] = 2,   [ARGEXT_UINT32] = 4,  [ARGEXT_UINT64] = 8};
static const char *const NAMES[ARGEXT_DTYPE_COUNT] = {
    [ARGEXT_FLOAT16] = "float16", [ARGEXT_BFLOAT16] = "bfloat16", [ARGEXT_FLOAT32] = "float32",
    [ARGEXT_FLOAT64] = "float64", [ARGEXT_INT8] = "int8",         [ARGEXT_INT16] = "int16",
    [ARGEXT_INT32] = "int32",     [ARGEXT_INT64] = "int64",       [ARGEXT_UINT8] = "uint8",
    [ARGEXT_UINT16] = "uint16",   [ARGEXT_UINT32] = "uint32",     [ARGEXT_UINT64] = "uint64"};

int valid_dtype(int dt) { return dt >= 0 && dt < ARGEXT_DTYPE_COUNT; }
size_t dtype_size(int dt) { return SIZES[dt]; }
const char *dtype_name(int dt) { return valid_dtype(dt) ? NAMES[dt] : "?"; }

int kind_of(int dt)
{
    switch (dt) {
    case ARGEXT_FLOAT16: case ARGEXT_BFLOAT16: case ARGEXT_FLOAT32: case ARGEXT_FLOAT64:
        return FLOAT;
    case ARGEXT_INT8: case ARGEXT_INT16: case ARGEXT_INT32: case ARGEXT_INT64:
        return SIGNED;
    default:
        return UNSIGNED;
    }
}

value read_value(int dt, const char *p)
{
    value v = {kind_of(dt), 0, 0, 0, 0};
    switch (dt) {
    case ARGEXT_FLOAT16: {
        uint16_t b;
        memcpy(&b, p, 2);
        int e = (b >> 10) & 31, m = b & 1023;
        double mag = e == 31 ? (m ? NAN : INFINITY) : e == 0 ? ldexp(m, -24) : ldexp(m + 1024, e - 25);
        v.f = (b >> 15) ? -mag : mag;
        break;
    }
    case ARGEXT_BFLOAT16: {
        uint16_t b;
        float f;
        uint32_t w;
        memcpy(&b, p, 2);
        w = (uint32_t)b << 16;
        memcpy(&f, &w, 4);
        v.f = f;
        break;
    }
    case ARGEXT_FLOAT32: { float f; memcpy(&f, p, 4); v.f = f; break; }
    case ARGEXT_FLOAT64: memcpy(&v.f, p, 8); break;
    case ARGEXT_INT8: { int8_t x; memcpy(&x, p, 1); v.i = x; break; }
    case ARGEXT_INT16: { int16_t x; memcpy(&x, p, 2); v.i = x; break; }
    case ARGEXT_INT32: { int32_t x; memcpy(&x, p, 4); v.i = x; break; }
    case ARGEXT_INT64: memcpy(&v.i, p, 8); break;
    case ARGEXT_UINT8: { uint8_t x; memcpy(&x, p, 1); v.u = x; break; }
    case ARGEXT_UINT16: { uint16_t x; memcpy(&x, p, 2); v.u = x; break; }
    case ARGEXT_UINT32: { uint32_t x; memcpy(&x, p, 4); v.u = x; break; }
    default: memcpy(&v.u, p, 8); break;
    }
    v.nan = v.kind == FLOAT && isnan(v.f);
    return v;
}

/* 1: a is strictly better than b, 0: as good, -1: worse. NaN beats
   everything for both operators; -0.0 == +0.0 by double comparison. */
int better(int is_min, const value *a, const value *b)
{
    if (a->nan || b->nan)
        return a->nan - b->nan;
    int o;
    if (a->kind == FLOAT)
        o = (a->f > b->f) - (a->f < b->f);
    else if (a->kind == SIGNED)
        o = (a->i > b->i) - (a->i < b->i);
    else
        o = (a->u > b->u) - (a->u < b->u);
    return is_min ? -o : o;
}

/* A random element, mostly small values (many ties) and some specials. */
/* Specials (NaN, infinities, integer extremes) in 1 of 8 elements, or with
   rare_specials in 1 of 4096: long float rows then have chunks free of NaN,
   which the float scans rank without the key fallback. */
int rare_specials;

void random_element(int dt, char *p)
{
    static const uint16_t f16_small[7] = {0xc200, 0xc000, 0xbc00, 0x0000, 0x3c00, 0x4000, 0x4200};
    static const uint16_t f16_special[11] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0xfe00,
                                             0x7c01, 0x0001, 0x8001, 0x7bff, 0xfbff};
    static const uint16_t bf16_small[7] = {0xc040, 0xc000, 0xbf80, 0x0000, 0x3f80, 0x4000, 0x4040};
    static const uint16_t bf16_special[11] = {0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0xffc0,
                                              0x7f81, 0x0001, 0x8001, 0x7f7f, 0xff7f};
    static const double f_special[9] = {0.0, -0.0, INFINITY, -INFINITY, NAN, -NAN, 1e-300, -1e300, 3.5};
    uint64_t r = rnd();
    int special = (r & (rare_specials ? 4095 : 7)) == 0;
    int small = (int)((r >> 8) % 7); /* value small - 3 */
    unsigned pick = (unsigned)(r >> 16);
    switch (dt) {
    case ARGEXT_FLOAT16: {
        uint16_t b = special ? f16_special[pick % 11] : f16_small[small];
        memcpy(p, &b, 2);
        break;
    }
    case ARGEXT_BFLOAT16: {
        uint16_t b = special ? bf16_special[pick % 11] : bf16_small[small];
        memcpy(p, &b, 2);
        break;
    }
    case ARGEXT_FLOAT32: {
        float f = special ? (float)f_special[pick % 9] : (float)(small - 3);
        memcpy(p, &f, 4);
        break;
    }
    case ARGEXT_FLOAT64: {
        double f = special ? f_special[pick % 9] : (double)(small - 3);
        memcpy(p, &f, 8);
        break;
    }
    default: {
        /* Integers: the type's extremes and their neighbours as specials. */
        int bits = (int)dtype_size(dt) * 8;
        int is_signed = kind_of(dt) == SIGNED;
        uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
        uint64_t top = is_signed ? mask >> 1 : mask; /* bit pattern of the max */
        uint64_t lo = is_signed ? (top + 1) & mask : 0; /* bit pattern of the min */
        uint64_t specials[6] = {top, (top - 1) & mask, lo, (lo + 1) & mask, 0, (uint64_t)1 << (bits - 2)};
        uint64_t x = special ? specials[pick % 6]
                             : (is_signed ? (uint64_t)(int64_t)(small - 3) & mask : (uint64_t)small);
        switch (dtype_size(dt)) { /* through the sized type: any byte order */
        case 1: { uint8_t y = (uint8_t)x; memcpy(p, &y, 1); break; }
        case 2: { uint16_t y = (uint16_t)x; memcpy(p, &y, 2); break; }
        case 4: { uint32_t y = (uint32_t)x; memcpy(p, &y, 4); break; }
        default: memcpy(p, &x, 8); break;
        }
    }
    }
}


int64_t read_index(int dt, const char *p)
{
    value v = read_value(dt, p);
    return kind_of(dt) == SIGNED ? v.i : (int64_t)v.u;
}
