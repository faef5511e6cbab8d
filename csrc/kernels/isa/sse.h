/*
 * sse.h - the SIMD contract's primitives (simd/contract.h) on 128-bit x86-64
 * vectors, for sse2.c (SSE2, the x86-64 floor: SSE42 0) and sse42.c (SSE42
 * 1: SSE4.1's blendv, pmaxsb/pmaxsd and pcmpeqq and SSE4.2's pcmpgtq replace
 * the SSE2 sequences below; x86-64-v2, NumPy 2.4's own x86-64 baseline).
 * Included by one of them inside its target pragma.
 */
#include "kernels/isa/x86.h"

typedef __m128i vec;
#define V_BYTES 16
#define X86_PREFIX _mm
#define X86_VBITS 128
#define X86_LOW128(v) (v)
#define X86_SET1_EPI64 _mm_set1_epi64x
/* movemask_epi8: one mask bit per byte, so w bits per w-byte lane. */
#define MASK_BITS(w) (w)

#define ISA_CMP_S64 SSE4_2 /* pcmpgtq; SSE2 emulates it in five instructions */
#define ISA_MASKED_LOAD 0
/* SSE4.1's blendv blends row bytes (v_store_row_S below; SSE2's three-step
   blend measured 0.89x on 512 float32 rows from DRAM, Zen 3). */
#define ISA_MASKED_STORE SSE4_2
#define ISA_LANE_INDEX 0
/* SSE4.2 on Zen 3, all pairs against rows alone: int8 0.78x, float16
   0.86x, float32 1.1-1.2x, int32 1.26x */
#define ISA_FOLD_ALL_PAIRS 0
#define ISA_POPCOUNT SSE4_2 /* popcnt; SSE2's popcount64 is a library call */
#define ISA_COMPRESS 0
#define ISA_MINMAX_WIDTHS (SSE4_2 ? 7 : 2) /* SSE2: pmaxsw/pminsw only */
#define ISA_FMAX_KEEPS_NAN 0 /* maxps/minps return their second operand for NaN */
/* SSE2 has no pmaxsd or pcmpgtq: its int32/int64 row scans test each block
   against the best so far and rank only the blocks that pass. */
#define ISA_FILTER_SCAN (!SSE4_2)

#include "kernels/isa/x86_vector.h"
VINLINE uint64_t v_mask(vec m) { return (uint32_t)_mm_movemask_epi8(m); }
/* m ? b : a, per byte (m: whole lanes of ones or zeros). */
VINLINE vec v_blend(vec m, vec a, vec b)
{
#if SSE4_2
    return _mm_blendv_epi8(a, b, m);
#else
    return _mm_or_si128(_mm_and_si128(m, b), _mm_andnot_si128(m, a));
#endif
}
#if SSE4_2
#define ISA_BLEND_LANES 1
VINLINE vec v_blend_32(vec m, vec a, vec b)
{
    return _mm_castps_si128(_mm_blendv_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(b), _mm_castsi128_ps(m)));
}
VINLINE vec v_blend_64(vec m, vec a, vec b)
{
    return _mm_castpd_si128(_mm_blendv_pd(_mm_castsi128_pd(a), _mm_castsi128_pd(b), _mm_castsi128_pd(m)));
}
#endif

/* The halves of each aligned group of 16, 32, 64, 128 bits exchanged. */
VINLINE vec v_swap16(vec x) { return _mm_or_si128(_mm_slli_epi16(x, 8), _mm_srli_epi16(x, 8)); }
VINLINE vec v_swap32(vec x) { return _mm_or_si128(_mm_slli_epi32(x, 16), _mm_srli_epi32(x, 16)); }
VINLINE vec v_swap64(vec x) { return _mm_shuffle_epi32(x, 0xb1); }
VINLINE vec v_swap128(vec x) { return _mm_shuffle_epi32(x, 0x4e); }

#if !SSE4_2
/* The high halves decide unless they are equal; then the high half of
   b - a is all ones exactly when the low halves borrow (a > b, unsigned).
   The answer sits in each high half: copy it down. */
VINLINE vec v_cmpgt_s64(vec a, vec b)
{
    vec hi_gt = _mm_cmpgt_epi32(a, b);
    vec hi_eq_lo_gt = _mm_and_si128(_mm_cmpeq_epi32(a, b), _mm_sub_epi64(b, a));
    return _mm_shuffle_epi32(_mm_or_si128(hi_gt, hi_eq_lo_gt), 0xf5);
}
VINLINE vec v_cmpeq_s64(vec a, vec b)
{
    vec e = _mm_cmpeq_epi32(a, b); /* both halves equal */
    return _mm_and_si128(e, _mm_shuffle_epi32(e, 0xb1));
}
#endif
#define X86_VECTOR_COMPARES 1
#define X86_CMP64 SSE4_2 /* pcmpgtq, pcmpeqq */
#define LANE_FILE "kernels/isa/x86_lanes.h"
#include "kernels/simd/for_each_lane.h"
#include "kernels/isa/vector_masks.h"

/* All ones in the negative lanes. */
VINLINE vec v_sign_s8(vec v) { return _mm_cmpgt_epi8(_mm_setzero_si128(), v); }
VINLINE vec v_sign_s16(vec v) { return _mm_srai_epi16(v, 15); }
VINLINE vec v_sign_s32(vec v) { return _mm_srai_epi32(v, 31); }
VINLINE vec v_sign_s64(vec v) { return _mm_shuffle_epi32(_mm_srai_epi32(v, 31), 0xf5); }

#if SSE4_2
VINLINE vec v_max_s8(vec a, vec b) { return _mm_max_epi8(a, b); }
VINLINE vec v_max_s32(vec a, vec b) { return _mm_max_epi32(a, b); }
VINLINE vec v_min_s8(vec a, vec b) { return _mm_min_epi8(a, b); }
VINLINE vec v_min_s32(vec a, vec b) { return _mm_min_epi32(a, b); }
#else
/* The unsigned maximum of the sign-flipped bytes. */
VINLINE vec v_max_s8(vec a, vec b)
{
    const vec top = _mm_set1_epi8(-128);
    return _mm_xor_si128(_mm_max_epu8(_mm_xor_si128(a, top), _mm_xor_si128(b, top)), top);
}
VINLINE vec v_max_s32(vec a, vec b) { return v_sel_gt_s32(b, a, a, b); }
VINLINE vec v_min_s8(vec a, vec b)
{
    const vec top = _mm_set1_epi8(-128);
    return _mm_xor_si128(_mm_min_epu8(_mm_xor_si128(a, top), _mm_xor_si128(b, top)), top);
}
VINLINE vec v_min_s32(vec a, vec b) { return v_sel_gt_s32(a, b, a, b); }
#endif
VINLINE vec v_max_s16(vec a, vec b) { return _mm_max_epi16(a, b); }
VINLINE vec v_max_s64(vec a, vec b) { return v_sel_gt_s64(b, a, a, b); }
VINLINE vec v_min_s16(vec a, vec b) { return _mm_min_epi16(a, b); }
VINLINE vec v_min_s64(vec a, vec b) { return v_sel_gt_s64(a, b, a, b); }

/* Each element's bytes reversed (byte-swapped input): SSSE3's byte shuffle,
   or in SSE2 the element's 16-bit words reversed, then each word's bytes. */
#if SSE4_2
VINLINE vec v_bswap_s16(vec x) { return _mm_shuffle_epi8(x, _mm_set_epi64x(ARGEXT_BSWAP_HI(2), ARGEXT_BSWAP_LO(2))); }
VINLINE vec v_bswap_s32(vec x) { return _mm_shuffle_epi8(x, _mm_set_epi64x(ARGEXT_BSWAP_HI(4), ARGEXT_BSWAP_LO(4))); }
VINLINE vec v_bswap_s64(vec x) { return _mm_shuffle_epi8(x, _mm_set_epi64x(ARGEXT_BSWAP_HI(8), ARGEXT_BSWAP_LO(8))); }
#else
VINLINE vec v_bswap_s16(vec x) { return v_swap16(x); }
VINLINE vec v_bswap_s32(vec x) { return v_swap16(_mm_shufflehi_epi16(_mm_shufflelo_epi16(x, 0xb1), 0xb1)); }
VINLINE vec v_bswap_s64(vec x) { return v_swap16(_mm_shufflehi_epi16(_mm_shufflelo_epi16(x, 0x1b), 0x1b)); }
#endif

/* Float lanes, compared as floats (float_lanes.h). */
#define ISA_FOP X86_FOP
#define ISA_FCMP(pred, a, b) X86_FOP(cmp##pred, a, b)
#define LANE_FILE "kernels/isa/float_lanes.h"
#include "kernels/simd/for_each_lane.h"
VINLINE int v_fany(fmask m) { return _mm_movemask_epi8(m) != 0; }

/* idx[l] = f for every lane l set in `up`: the lane masks widened to 64
   bits by interleaving them with themselves (widen_by_zip.h). */
VINLINE vec v_zip_lo_s8(vec m) { return _mm_unpacklo_epi8(m, m); }
VINLINE vec v_zip_hi_s8(vec m) { return _mm_unpackhi_epi8(m, m); }
VINLINE vec v_zip_lo_s16(vec m) { return _mm_unpacklo_epi16(m, m); }
VINLINE vec v_zip_hi_s16(vec m) { return _mm_unpackhi_epi16(m, m); }
VINLINE vec v_zip_lo_s32(vec m) { return _mm_unpacklo_epi32(m, m); }
VINLINE vec v_zip_hi_s32(vec m) { return _mm_unpackhi_epi32(m, m); }
/* idx[0..1] = f where the 64-bit lanes of m are set. */
VINLINE void v_store_index_pair(int64_t *idx, vec m, int64_t f)
{
    __m128i *q = (__m128i *)idx;
    _mm_storeu_si128(q, v_blend(m, _mm_loadu_si128(q), _mm_set1_epi64x(f)));
}
#include "kernels/isa/widen_by_zip.h"

#if SSE4_2
/* rows[l] = r for every lane l set in `up`: the lane masks narrowed to one
   byte a lane (packs) and blended into the row bytes, n of them (SSE has
   no masked byte store). */
VINLINE void store_row_bytes(int8_t *rows, vec m, int r, size_t n)
{
    int64_t old = 0;
    memcpy(&old, rows, n);
    const int64_t x = _mm_cvtsi128_si64(v_blend(m, _mm_cvtsi64_si128(old), _mm_set1_epi8((char)r)));
    memcpy(rows, &x, n);
}
VINLINE void v_store_row_s8(int8_t *rows, vmask up, int r)
{
    __m128i *q = (__m128i *)rows;
    _mm_storeu_si128(q, v_blend(up, _mm_loadu_si128(q), _mm_set1_epi8((char)r)));
}
VINLINE void v_store_row_s16(int8_t *rows, vmask up, int r) { store_row_bytes(rows, _mm_packs_epi16(up, up), r, 8); }
VINLINE void v_store_row_s32(int8_t *rows, vmask up, int r)
{
    const vec m = _mm_packs_epi32(up, up);
    store_row_bytes(rows, _mm_packs_epi16(m, m), r, 4);
}
VINLINE void v_store_row_s64(int8_t *rows, vmask up, int r)
{
    /* each lane's mask in two 16-bit halves; one of each moved down */
    const vec m = _mm_shufflelo_epi16(_mm_packs_epi32(up, up), _MM_SHUFFLE(3, 3, 2, 0));
    store_row_bytes(rows, _mm_packs_epi16(m, m), r, 2);
}
#endif

#if ISA_FILTER_SCAN
/* Lanes whose top bit is set where key k may pass the threshold thr (from
   v_filter_threshold): int32, k > thr exactly; int64, k / 2 (rounded down,
   in unsigned order, so that the difference cannot overflow) > thr, which
   holds whenever k > best or k >= best. */
VINLINE vec v_filter_s32(vec k, vec thr) { return _mm_cmpgt_epi32(k, thr); }
VINLINE vec v_filter_s64(vec k, vec thr)
{
    return _mm_sub_epi64(thr, _mm_srli_epi64(_mm_xor_si128(k, _mm_set1_epi64x(INT64_MIN)), 1));
}
/* The threshold for v_filter from the best key, or 0 if no key can be
   ruled out. */
VINLINE int v_filter_threshold_s32(int64_t best, int last, vec *thr)
{
    if (last && best == INT32_MIN)
        return 0;
    *thr = _mm_set1_epi32((int)(best - last));
    return 1;
}
VINLINE int v_filter_threshold_s64(int64_t best, int last, vec *thr)
{
    (void)last;
    uint64_t half = ((uint64_t)best ^ (UINT64_C(1) << 63)) >> 1;
    if (half == 0)
        return 0;
    *thr = _mm_set1_epi64x((int64_t)(half - 1));
    return 1;
}
VINLINE int v_filter_any_s32(vec m) { return _mm_movemask_epi8(m) != 0; }
VINLINE int v_filter_any_s64(vec m) { return (_mm_movemask_epi8(m) & 0x8080) != 0; }
#endif
