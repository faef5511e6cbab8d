/*
 * neon.c - the SIMD contract's primitives (simd/contract.h) on 128-bit
 * AArch64 Advanced SIMD (NEON) vectors, which every AArch64 CPU has (no
 * target needed), then the SIMD template. Vectors are carried as int8x16_t
 * and reinterpreted per lane width.
 */
#include "kernels/platform.h"

#if ARGEXT_ON_AARCH64(ARGEXT_KEPT_NEON(1))
#include <string.h>
#if defined(_MSC_VER) && !defined(__clang__)
#include <arm64_neon.h>
#else
#include <arm_neon.h>
#endif

typedef int8x16_t vec;
#define V_BYTES 16
/* No movemask: a comparison is narrowed to 4 bits per byte (v_mask). */
#define MASK_BITS(w) (4 * (w))

#define ISA_CMP_S64 1 /* cmgt .2d */
#define ISA_FILTER_SCAN 0
#define ISA_MASKED_LOAD 0
#define ISA_MASKED_STORE 0
#define ISA_LANE_INDEX 0
#define ISA_FOLD_ALL_PAIRS 0
#define ISA_POPCOUNT 1 /* cnt and addv */
#define ISA_COMPRESS 0
#define ISA_MINMAX_WIDTHS 7 /* smax/smin .16b, .8h, .4s; not .2d */
#define ISA_FMAX_KEEPS_NAN 1 /* fmax/fmin return NaN if either operand is NaN */

#define S16(v) vreinterpretq_s16_s8(v)
#define S32(v) vreinterpretq_s32_s8(v)
#define S64(v) vreinterpretq_s64_s8(v)

VINLINE vec v_load(const char *p) { return vld1q_s8((const int8_t *)p); }
VINLINE void v_store(char *p, vec v) { vst1q_s8((int8_t *)p, v); }
/* No non-temporal store intrinsic: a plain one. */
VINLINE void v_stream(char *p, vec v) { v_store(p, v); }
VINLINE void v_stream_fence(void) {}
VINLINE vec v_and(vec a, vec b) { return vandq_s8(a, b); }
VINLINE vec v_or(vec a, vec b) { return vorrq_s8(a, b); }
VINLINE vec v_xor(vec a, vec b) { return veorq_s8(a, b); }
VINLINE uint64_t v_low64(vec v) { return (uint64_t)vgetq_lane_s64(S64(v), 0); }
/* A comparison result as 64 bits: 4 per byte (shift right and narrow). */
VINLINE uint64_t v_mask(vec m)
{
    return vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_s8(m), 4)), 0);
}
/* m ? b : a, per byte (m: whole lanes of ones or zeros). */
VINLINE vec v_blend(vec m, vec a, vec b) { return vbslq_s8(vreinterpretq_u8_s8(m), b, a); }

/* The halves of each aligned group of 16, 32, 64, 128 bits exchanged. */
VINLINE vec v_swap16(vec x) { return vrev16q_s8(x); }
VINLINE vec v_swap32(vec x) { return vreinterpretq_s8_s16(vrev32q_s16(S16(x))); }
VINLINE vec v_swap64(vec x) { return vreinterpretq_s8_s32(vrev64q_s32(S32(x))); }
VINLINE vec v_swap128(vec x) { return vextq_s8(x, x, 8); }

#define LANE_FILE "kernels/isa/neon_lanes.h"
#include "kernels/simd/for_each_lane.h"
#include "kernels/isa/vector_masks.h"

VINLINE vec v_max_s64(vec a, vec b) { return v_sel_gt_s64(b, a, a, b); }
VINLINE vec v_min_s64(vec a, vec b) { return v_sel_gt_s64(a, b, a, b); }

/* Each element's bytes reversed (byte-swapped input). */
VINLINE vec v_bswap_s16(vec x) { return vrev16q_s8(x); }
VINLINE vec v_bswap_s32(vec x) { return vrev32q_s8(x); }
VINLINE vec v_bswap_s64(vec x) { return vrev64q_s8(x); }

/* Float lanes, compared as floats (float_lanes.h): fmaxnm/fminnm return
   the number where one operand is NaN. NaN in a or b (unord): not both
   equal to themselves. */
#define NEON_F(op, flane) NEON_F2(op, flane)
#define NEON_F2(op, flane) v##op##q_##flane
#define NEON_TO_F(v) NEON_CAST(FLANE, s8)(v)
#define NEON_FROM(x, type) NEON_CAST(s8, type)(x)
#define NEON_CAST(to, from) NEON_CAST2(to, from)
#define NEON_CAST2(to, from) vreinterpretq_##to##_##from
#define ISA_FOP(op, a, b) NEON_FROM(NEON_F(op, FLANE)(NEON_TO_F(a), NEON_TO_F(b)), FLANE)
#define ISA_FCMP(pred, a, b) NEON_FCMP_##pred(a, b)
#define NEON_FCMP(op, a, b) NEON_FROM(NEON_F(op, FLANE)(NEON_TO_F(a), NEON_TO_F(b)), NEON_UF(FLANE))
#define NEON_UF(flane) NEON_UF2(flane)
#define NEON_UF2(flane) NEON_UF_##flane
#define NEON_UF_f32 u32
#define NEON_UF_f64 u64
#define NEON_FCMP_gt(a, b) NEON_FCMP(cgt, a, b)
#define NEON_FCMP_ge(a, b) NEON_FCMP(cge, a, b)
#define NEON_FCMP_eq(a, b) NEON_FCMP(ceq, a, b)
#define NEON_FCMP_unord(a, b) vmvnq_s8(v_and(NEON_FCMP(ceq, a, a), NEON_FCMP(ceq, b, b)))
#define LANE_FILE "kernels/isa/float_lanes.h"
#include "kernels/simd/for_each_lane.h"
VINLINE int v_fany(fmask m) { return vmaxvq_u32(vreinterpretq_u32_s8(m)) != 0; }

/* idx[l] = f for every lane l set in `up`: the lane masks widened to 64
   bits by interleaving them with themselves (widen_by_zip.h). */
VINLINE vec v_zip_lo_s8(vec m) { return vzip1q_s8(m, m); }
VINLINE vec v_zip_hi_s8(vec m) { return vzip2q_s8(m, m); }
VINLINE vec v_zip_lo_s16(vec m) { return vreinterpretq_s8_s16(vzip1q_s16(S16(m), S16(m))); }
VINLINE vec v_zip_hi_s16(vec m) { return vreinterpretq_s8_s16(vzip2q_s16(S16(m), S16(m))); }
VINLINE vec v_zip_lo_s32(vec m) { return vreinterpretq_s8_s32(vzip1q_s32(S32(m), S32(m))); }
VINLINE vec v_zip_hi_s32(vec m) { return vreinterpretq_s8_s32(vzip2q_s32(S32(m), S32(m))); }
/* idx[0..1] = f where the 64-bit lanes of m are set. */
VINLINE void v_store_index_pair(int64_t *idx, vec m, int64_t f)
{
    vst1q_s64(idx, vbslq_s64(vreinterpretq_u64_s8(m), vdupq_n_s64(f), vld1q_s64(idx)));
}
#include "kernels/isa/widen_by_zip.h"

#define ISA NEON
#include "kernels/simd/template.h"

#endif /* ARGEXT_ON_AARCH64(ARGEXT_KEPT_NEON(1)) */
