/*
 * kernels_neon.c - the SIMD template (kernels_simd.h) on 128-bit AArch64
 * Advanced SIMD (NEON) vectors, which every AArch64 CPU has (no target
 * pragma needed). Vectors are carried as int8x16_t and reinterpreted per
 * lane width.
 */
#include "kernels/kernels.h"

#ifdef ARGEXT_AARCH64
#include <string.h>
#if defined(_MSC_VER) && !defined(__clang__)
#include <arm64_neon.h>
#include <intrin.h>
#else
#include <arm_neon.h>
#endif

#include "kernels/dtypes.h"

typedef int8x16_t vec;
#define V_BYTES 16
/* No movemask: a comparison is narrowed to 4 bits per byte (v_mask). */
#define LANE_BITS(w) (4 * (w))

#define S16(v) vreinterpretq_s16_s8(v)
#define S32(v) vreinterpretq_s32_s8(v)
#define S64(v) vreinterpretq_s64_s8(v)
#define F32(v) vreinterpretq_f32_s8(v)
#define F64(v) vreinterpretq_f64_s8(v)
#define V8(v) vreinterpretq_s8_u8(v)
#define V16(v) vreinterpretq_s8_u16(v)
#define V32(v) vreinterpretq_s8_u32(v)
#define V64(v) vreinterpretq_s8_u64(v)

VINLINE vec v_load(const char *p) { return vld1q_s8((const int8_t *)p); }
VINLINE void v_store(char *p, vec v) { vst1q_s8((int8_t *)p, v); }
/* Each w-byte element's bytes reversed (byte-swapped input, w >= 2). */
VINLINE vec v_bswap(int w, vec x)
{
    switch (w) {
    case 2: return vrev16q_s8(x);
    case 4: return vrev32q_s8(x);
    default: return vrev64q_s8(x);
    }
}
VINLINE vec v_xor(vec a, vec b) { return veorq_s8(a, b); }
VINLINE vec v_and(vec a, vec b) { return vandq_s8(a, b); }

VINLINE vec v_set1(int w, int64_t x)
{
    switch (w) {
    case 1: return vdupq_n_s8((int8_t)x);
    case 2: return vreinterpretq_s8_s16(vdupq_n_s16((int16_t)x));
    case 4: return vreinterpretq_s8_s32(vdupq_n_s32((int32_t)x));
    default: return vreinterpretq_s8_s64(vdupq_n_s64(x));
    }
}

VINLINE vec v_sub(int w, vec a, vec b)
{
    switch (w) {
    case 1: return vsubq_s8(a, b);
    case 2: return vreinterpretq_s8_s16(vsubq_s16(S16(a), S16(b)));
    case 4: return vreinterpretq_s8_s32(vsubq_s32(S32(a), S32(b)));
    default: return vreinterpretq_s8_s64(vsubq_s64(S64(a), S64(b)));
    }
}

/* All ones where a > b (signed lanes). */
VINLINE vec v_cmpgt(int w, vec a, vec b)
{
    switch (w) {
    case 1: return V8(vcgtq_s8(a, b));
    case 2: return V16(vcgtq_s16(S16(a), S16(b)));
    case 4: return V32(vcgtq_s32(S32(a), S32(b)));
    default: return V64(vcgtq_s64(S64(a), S64(b)));
    }
}

VINLINE vec v_cmpge(int w, vec a, vec b)
{
    switch (w) {
    case 1: return V8(vcgeq_s8(a, b));
    case 2: return V16(vcgeq_s16(S16(a), S16(b)));
    case 4: return V32(vcgeq_s32(S32(a), S32(b)));
    default: return V64(vcgeq_s64(S64(a), S64(b)));
    }
}

VINLINE vec v_cmpeq(int w, vec a, vec b)
{
    switch (w) {
    case 1: return V8(vceqq_s8(a, b));
    case 2: return V16(vceqq_s16(S16(a), S16(b)));
    case 4: return V32(vceqq_s32(S32(a), S32(b)));
    default: return V64(vceqq_s64(S64(a), S64(b)));
    }
}

/* All ones in the negative lanes. */
VINLINE vec v_sign(int w, vec v)
{
    switch (w) {
    case 1: return vshrq_n_s8(v, 7);
    case 2: return vreinterpretq_s8_s16(vshrq_n_s16(S16(v), 15));
    case 4: return vreinterpretq_s8_s32(vshrq_n_s32(S32(v), 31));
    default: return vreinterpretq_s8_s64(vshrq_n_s64(S64(v), 63));
    }
}

/* m ? b : a, per byte (m: whole lanes of ones or zeros). */
VINLINE vec v_blend(vec m, vec a, vec b) { return vbslq_s8(vreinterpretq_u8_s8(m), b, a); }

/* x > y ? b : a, per lane. */
VINLINE vec v_sel_gt(int w, vec x, vec y, vec a, vec b) { return v_blend(v_cmpgt(w, x, y), a, b); }

/* Float lanes (w = 4: float32, 8: float64), compared as floats: the larger
   (is_min: the smaller). A lane holding NaN gives a NaN. */
VINLINE vec v_fext(int w, int is_min, vec a, vec b)
{
    if (w == 4)
        return vreinterpretq_s8_f32(is_min ? vminq_f32(F32(a), F32(b)) : vmaxq_f32(F32(a), F32(b)));
    return vreinterpretq_s8_f64(is_min ? vminq_f64(F64(a), F64(b)) : vmaxq_f64(F64(a), F64(b)));
}

/* Float-lane comparisons for the float row scan: masks as whole lanes of
   ones; a comparison with NaN is false (ordered), except v_funord. */
typedef vec fmask;
#define FEXT_KEEPS_NAN 1 /* fmax/fmin return NaN if either operand is NaN */
/* The extreme of x and y (y not NaN), y where x is NaN: fmaxnm/fminnm. */
VINLINE vec v_fext_num(int w, int is_min, vec x, vec y)
{
    if (w == 4)
        return vreinterpretq_s8_f32(is_min ? vminnmq_f32(F32(x), F32(y)) : vmaxnmq_f32(F32(x), F32(y)));
    return vreinterpretq_s8_f64(is_min ? vminnmq_f64(F64(x), F64(y)) : vmaxnmq_f64(F64(x), F64(y)));
}
/* cgt, cge on float32 or float64 lanes (op: gt, ge). */
#define v_fcmp(w, a, b, op)                                        \
    ((w) == 4 ? vreinterpretq_s8_u32(vc##op##q_f32(F32(a), F32(b))) \
              : vreinterpretq_s8_u64(vc##op##q_f64(F64(a), F64(b))))
#define v_fgt(w, a, b) v_fcmp(w, a, b, gt)
#define v_fge(w, a, b) v_fcmp(w, a, b, ge)
/* NaN in a or b: not both equal to themselves. */
#define v_funord(w, a, b) v_xor(v_and(v_fcmp(w, a, a, eq), v_fcmp(w, b, b, eq)), v_set1(1, -1))
#define v_feq(w, a, b) v_fcmp(w, a, b, eq)
#define v_fbits(m) v_mask(m)
VINLINE fmask v_for(fmask a, fmask b) { return vorrq_s8(a, b); }
VINLINE int v_fany(fmask m) { return vmaxvq_u32(vreinterpretq_u32_s8(m)) != 0; }
/* m ? b : a, per lane. */
VINLINE vec v_fblend(int w, fmask m, vec a, vec b)
{
    (void)w;
    return v_blend(m, a, b);
}

VINLINE vec v_max(int w, vec a, vec b)
{
    switch (w) {
    case 1: return vmaxq_s8(a, b);
    case 2: return vreinterpretq_s8_s16(vmaxq_s16(S16(a), S16(b)));
    case 4: return vreinterpretq_s8_s32(vmaxq_s32(S32(a), S32(b)));
    default: return v_sel_gt(8, b, a, a, b);
    }
}

/* A comparison result as 64 bits: 4 per byte (shift right and narrow). */
VINLINE uint64_t v_mask(vec m)
{
    return vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_s8(m), 4)), 0);
}
VINLINE uint64_t v_gt(int w, vec a, vec b) { return v_mask(v_cmpgt(w, a, b)); }
VINLINE uint64_t v_ge(int w, vec a, vec b) { return v_mask(v_cmpge(w, a, b)); }
VINLINE uint64_t v_eq(int w, vec a, vec b) { return v_mask(v_cmpeq(w, a, b)); }

/* Comparison results as the kernels' column fold consumes them. */
typedef vec vmask;
VINLINE vmask v_gtm(int w, vec a, vec b) { return v_cmpgt(w, a, b); }
VINLINE vmask v_gem(int w, vec a, vec b) { return v_cmpge(w, a, b); }

/* idx[l] = f for every lane l set in `up` (int64 indices, 2 per store): the
   lane masks are widened to 64 bits by interleaving them with themselves. */
VINLINE void v_store_index(int w, int64_t *idx, vmask up, int64_t f)
{
    const int64x2_t fv = vdupq_n_s64(f);
    vec part[8];
    int parts = 1;
    part[0] = up;
    for (int lw = w; lw < 8; lw *= 2, parts *= 2)
        for (int k = parts - 1; k >= 0; k--) {
            vec m = part[k];
            switch (lw) {
            case 1:
                part[2 * k] = vzip1q_s8(m, m);
                part[2 * k + 1] = vzip2q_s8(m, m);
                break;
            case 2:
                part[2 * k] = vreinterpretq_s8_s16(vzip1q_s16(S16(m), S16(m)));
                part[2 * k + 1] = vreinterpretq_s8_s16(vzip2q_s16(S16(m), S16(m)));
                break;
            default:
                part[2 * k] = vreinterpretq_s8_s32(vzip1q_s32(S32(m), S32(m)));
                part[2 * k + 1] = vreinterpretq_s8_s32(vzip2q_s32(S32(m), S32(m)));
                break;
            }
        }
    for (int c = 0; c < parts; c++)
        vst1q_s64(idx + 2 * c, vbslq_s64(vreinterpretq_u64_s8(part[c]), fv, vld1q_s64(idx + 2 * c)));
}

/* No byte-granular masked store: the dense rows store indices directly;
   no masked load: rows shorter than a vector run the baseline. */
#define HAS_STORE_ROW 0
#define HAS_ACTIVE_LOAD 0
#define HAS_CMP64 1 /* cmgt .2d */
#define HAS_FILTER_SCAN 0 /* every lane width has a one-instruction maximum */
#define FILTER_SCAN(w, kind) 0

/* The maximum of each aligned group of `bytes` bytes (a power of two),
   in every lane of the group: the butterfly steps shorter than the group.
   Of keys, or (is_float) of float32/float64 lanes without NaN, their
   extreme (is_min: the minimum). */
#define HEXT(y) (is_float ? v_fext(w, is_min, x, y) : v_max(w, x, y))
VINLINE vec v_hext_within(int w, vec x, int bytes, int is_float, int is_min)
{
    if (bytes > 8)
        x = HEXT(vextq_s8(x, x, 8));
    if (w <= 4 && bytes > 4)
        x = HEXT(vreinterpretq_s8_s32(vrev64q_s32(S32(x))));
    if (w <= 2 && bytes > 2)
        x = HEXT(vreinterpretq_s8_s16(vrev32q_s16(S16(x))));
    if (w == 1 && bytes > 1)
        x = HEXT(vrev16q_s8(x));
    return x;
}
#undef HEXT

/* Lane 0, sign-extended. */
VINLINE int64_t v_lane0(int w, vec v)
{
    switch (w) {
    case 1: return vgetq_lane_s8(v, 0);
    case 2: return vgetq_lane_s16(S16(v), 0);
    case 4: return vgetq_lane_s32(S32(v), 0);
    default: return vgetq_lane_s64(S64(v), 0);
    }
}

#if defined(_MSC_VER) && !defined(__clang__)
#ifndef ARM64_SYSREG
#define ARM64_SYSREG(op0, op1, crn, crm, op2) \
    ((((op0)&1) << 14) | (((op1)&7) << 11) | (((crn)&15) << 7) | (((crm)&15) << 3) | ((op2)&7))
#endif
#ifndef ARM64_FPCR
#define ARM64_FPCR ARM64_SYSREG(3, 3, 4, 4, 0)
#endif
VINLINE void v_prefetch(const char *p) { __prefetch(p); }
VINLINE uint64_t fpcr(void) { return (uint64_t)_ReadStatusReg(ARM64_FPCR); }
#else
VINLINE void v_prefetch(const char *p) { __builtin_prefetch(p); }
VINLINE uint64_t fpcr(void)
{
    uint64_t x;
    __asm__ volatile("mrs %0, fpcr" : "=r"(x));
    return x;
}
#endif
/* FPCR.FZ (bit 24) flushes denormal inputs to zero; so does FPCR.FIZ (bit 0,
   FEAT_AFP; zero where the CPU lacks it). */
VINLINE int v_denormals_are_zero(void) { return (fpcr() & ((UINT64_C(1) << 24) | 1)) != 0; }

#define ISA_TABLE argext_kernels_neon
#include "kernels/kernels_simd.h"

#endif /* ARGEXT_AARCH64 */
