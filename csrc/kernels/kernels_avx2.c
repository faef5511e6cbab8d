/*
 * kernels_avx2.c - the SIMD template (kernels_simd.h) on 256-bit AVX2
 * vectors, compiled for AVX2 by its target pragma (MSVC: /arch:AVX2 from the
 * build); dispatch.c runs it only where cpuid and xgetbv report AVX2 and OS
 * support for the YMM state.
 */
#include "kernels/kernels.h"

#ifdef ARGEXT_X86_64
#include <immintrin.h>
#include <string.h>

#include "kernels/dtypes.h"

ISA_TARGET_BEGIN("avx2")

typedef __m256i vec;
#define V_BYTES 32
/* movemask_epi8: one mask bit per byte, so w bits per w-byte lane. */
#define LANE_BITS(w) (w)

VINLINE vec v_load(const char *p) { return _mm256_loadu_si256((const __m256i *)p); }
VINLINE void v_store(char *p, vec v) { _mm256_storeu_si256((__m256i *)p, v); }
/* Each w-byte element's bytes reversed (byte-swapped input, w >= 2). */
VINLINE vec v_bswap(int w, vec x)
{
    int64_t lo = ARGEXT_BSWAP_SHUFFLE_LO(w), hi = ARGEXT_BSWAP_SHUFFLE_HI(w);
    return _mm256_shuffle_epi8(x, _mm256_set_epi64x(hi, lo, hi, lo));
}
VINLINE vec v_xor(vec a, vec b) { return _mm256_xor_si256(a, b); }
VINLINE vec v_and(vec a, vec b) { return _mm256_and_si256(a, b); }

VINLINE vec v_set1(int w, int64_t x)
{
    switch (w) {
    case 1: return _mm256_set1_epi8((char)x);
    case 2: return _mm256_set1_epi16((short)x);
    case 4: return _mm256_set1_epi32((int)x);
    default: return _mm256_set1_epi64x(x);
    }
}

VINLINE vec v_sub(int w, vec a, vec b)
{
    switch (w) {
    case 1: return _mm256_sub_epi8(a, b);
    case 2: return _mm256_sub_epi16(a, b);
    case 4: return _mm256_sub_epi32(a, b);
    default: return _mm256_sub_epi64(a, b);
    }
}

/* All ones where a > b (signed lanes). */
VINLINE vec v_cmpgt(int w, vec a, vec b)
{
    switch (w) {
    case 1: return _mm256_cmpgt_epi8(a, b);
    case 2: return _mm256_cmpgt_epi16(a, b);
    case 4: return _mm256_cmpgt_epi32(a, b);
    default: return _mm256_cmpgt_epi64(a, b);
    }
}

VINLINE vec v_cmpeq(int w, vec a, vec b)
{
    switch (w) {
    case 1: return _mm256_cmpeq_epi8(a, b);
    case 2: return _mm256_cmpeq_epi16(a, b);
    case 4: return _mm256_cmpeq_epi32(a, b);
    default: return _mm256_cmpeq_epi64(a, b);
    }
}

/* All ones in the negative lanes. */
VINLINE vec v_sign(int w, vec v) { return v_cmpgt(w, _mm256_setzero_si256(), v); }

/* x > y ? b : a, per lane. */
VINLINE vec v_sel_gt(int w, vec x, vec y, vec a, vec b)
{
    return _mm256_blendv_epi8(a, b, v_cmpgt(w, x, y));
}

/* Float lanes (w = 4: float32, 8: float64), compared as floats: the larger
   (is_min: the smaller). A lane holding NaN gives either operand. */
VINLINE vec v_fext(int w, int is_min, vec a, vec b)
{
    if (w == 4)
        return _mm256_castps_si256(is_min ? _mm256_min_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b))
                                   : _mm256_max_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b)));
    return _mm256_castpd_si256(is_min ? _mm256_min_pd(_mm256_castsi256_pd(a), _mm256_castsi256_pd(b))
                               : _mm256_max_pd(_mm256_castsi256_pd(a), _mm256_castsi256_pd(b)));
}

/* Float-lane comparisons for the float row scan: masks as whole lanes of
   ones; a comparison with NaN is false (ordered), except v_funord. */
typedef vec fmask;
/* A macro: the predicate must reach the intrinsic as a constant. */
#define v_fcmp(w, a, b, pred)                                                                   \
    ((w) == 4 ? _mm256_castps_si256(_mm256_cmp_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), pred)) \
              : _mm256_castpd_si256(_mm256_cmp_pd(_mm256_castsi256_pd(a), _mm256_castsi256_pd(b), pred)))
#define v_fgt(w, a, b) v_fcmp(w, a, b, _CMP_GT_OQ)
#define v_fge(w, a, b) v_fcmp(w, a, b, _CMP_GE_OQ)
#define v_funord(w, a, b) v_fcmp(w, a, b, _CMP_UNORD_Q)
#define v_feq(w, a, b) v_fcmp(w, a, b, _CMP_EQ_OQ)
#define v_fbits(m) v_mask(m)
VINLINE fmask v_for(fmask a, fmask b) { return _mm256_or_si256(a, b); }
VINLINE int v_fany(fmask m) { return !_mm256_testz_si256(m, m); }
/* m ? b : a, per lane. */
VINLINE vec v_fblend(int w, fmask m, vec a, vec b)
{
    (void)w;
    return _mm256_blendv_epi8(a, b, m);
}

VINLINE vec v_max(int w, vec a, vec b)
{
    switch (w) {
    case 1: return _mm256_max_epi8(a, b);
    case 2: return _mm256_max_epi16(a, b);
    case 4: return _mm256_max_epi32(a, b);
    default: return v_sel_gt(8, b, a, a, b);
    }
}

VINLINE uint64_t v_mask(vec m) { return (uint32_t)_mm256_movemask_epi8(m); }
VINLINE uint64_t v_gt(int w, vec a, vec b) { return v_mask(v_cmpgt(w, a, b)); }
VINLINE uint64_t v_ge(int w, vec a, vec b) { return v_mask(v_cmpgt(w, b, a)) ^ 0xffffffffu; }
VINLINE uint64_t v_eq(int w, vec a, vec b) { return v_mask(v_cmpeq(w, a, b)); }

/* Comparison results as the kernels' column fold consumes them. */
typedef vec vmask;
VINLINE vmask v_gtm(int w, vec a, vec b) { return v_cmpgt(w, a, b); }
VINLINE vmask v_gem(int w, vec a, vec b) { return v_xor(v_cmpgt(w, b, a), _mm256_set1_epi8(-1)); }

/* idx[l] = f for every lane l set in `up` (int64 indices, 4 per store). */
VINLINE void v_store_index(int w, int64_t *idx, vmask up, int64_t f)
{
    const __m256i fv = _mm256_set1_epi64x(f);
    unsigned char m[32];
    _mm256_storeu_si256((__m256i *)m, up);
    for (int c = 0; c < 32 / w / 4; c++) {
        __m128i part;
        __m256i lanes;
        switch (w) {
        case 1: {
            int32_t x;
            memcpy(&x, m + 4 * c, 4);
            lanes = _mm256_cvtepi8_epi64(_mm_cvtsi32_si128(x));
            break;
        }
        case 2:
            part = _mm_loadl_epi64((const __m128i *)(m + 8 * c));
            lanes = _mm256_cvtepi16_epi64(part);
            break;
        case 4:
            part = _mm_loadu_si128((const __m128i *)(m + 16 * c));
            lanes = _mm256_cvtepi32_epi64(part);
            break;
        default:
            lanes = up;
            break;
        }
        __m256i *q = (__m256i *)(idx + 4 * c);
        _mm256_storeu_si256(q, _mm256_blendv_epi8(_mm256_loadu_si256(q), fv, lanes));
    }
}

/* No byte-granular masked store: the dense rows store indices directly;
   no byte-granular masked load: rows shorter than a vector run the baseline. */
#define HAS_STORE_ROW 0
#define HAS_ACTIVE_LOAD 0
#define HAS_CMP64 1 /* pcmpgtq */
#define HAS_FILTER_SCAN 0 /* every lane width has a one-instruction maximum */
#define FILTER_SCAN(w, kind) 0

/* The maximum of each aligned group of `bytes` bytes (a power of two),
   in every lane of the group: the butterfly steps shorter than the group.
   Of keys, or (is_float) of float32/float64 lanes without NaN, their
   extreme (is_min: the minimum). */
#define HEXT(y) (is_float ? v_fext(w, is_min, x, y) : v_max(w, x, y))
VINLINE vec v_hext_within(int w, vec x, int bytes, int is_float, int is_min)
{
    if (bytes > 16)
        x = HEXT(_mm256_permute2x128_si256(x, x, 1));
    if (bytes > 8)
        x = HEXT(_mm256_shuffle_epi32(x, 0x4e));
    if (w <= 4 && bytes > 4)
        x = HEXT(_mm256_shuffle_epi32(x, 0xb1));
    if (w <= 2 && bytes > 2)
        x = HEXT(_mm256_or_si256(_mm256_slli_epi32(x, 16), _mm256_srli_epi32(x, 16)));
    if (w == 1 && bytes > 1)
        x = HEXT(_mm256_or_si256(_mm256_slli_epi16(x, 8), _mm256_srli_epi16(x, 8)));
    return x;
}
#undef HEXT

/* Lane 0, sign-extended. */
VINLINE int64_t v_lane0(int w, vec v)
{
    int64_t x = _mm_cvtsi128_si64(_mm256_castsi256_si128(v));
    switch (w) {
    case 1: return (int8_t)x;
    case 2: return (int16_t)x;
    case 4: return (int32_t)x;
    default: return x;
    }
}

VINLINE void v_prefetch(const char *p) { _mm_prefetch(p, _MM_HINT_T0); }
/* MXCSR.DAZ (bit 6). */
VINLINE int v_denormals_are_zero(void) { return (_mm_getcsr() & 0x40) != 0; }

#define ISA_TABLE argext_kernels_avx2
#include "kernels/kernels_simd.h"

ISA_TARGET_END

#endif /* ARGEXT_X86_64 */
