/*
 * kernels_avx512.c - the SIMD template (kernels_simd.h) on 512-bit
 * AVX-512 F/BW vectors with mask registers, compiled for AVX-512 F/BW/VL/DQ
 * by its target pragma (MSVC: /arch:AVX512 from the build); dispatch.c runs
 * it only where cpuid and the OS (xgetbv; on macOS, the kernel's lazy ZMM
 * enable) report those extensions and support for the ZMM state.
 */
#include "kernels/kernels.h"

#ifdef ARGEXT_X86_64
#include <immintrin.h>
#include <string.h>

#include "kernels/dtypes.h"

ISA_TARGET_BEGIN("avx2,avx512f,avx512bw,avx512vl,avx512dq")

typedef __m512i vec;
#define V_BYTES 64
/* Comparisons give mask registers: one bit per lane. */
#define LANE_BITS(w) 1

VINLINE vec v_load(const char *p) { return _mm512_loadu_si512((const void *)p); }
VINLINE void v_store(char *p, vec v) { _mm512_storeu_si512((void *)p, v); }
/* Each w-byte element's bytes reversed (byte-swapped input, w >= 2). */
VINLINE vec v_bswap(int w, vec x)
{
    int64_t lo = ARGEXT_BSWAP_SHUFFLE_LO(w), hi = ARGEXT_BSWAP_SHUFFLE_HI(w);
    return _mm512_shuffle_epi8(x, _mm512_set_epi64(hi, lo, hi, lo, hi, lo, hi, lo));
}
VINLINE vec v_xor(vec a, vec b) { return _mm512_xor_si512(a, b); }
VINLINE vec v_and(vec a, vec b) { return _mm512_and_si512(a, b); }

VINLINE vec v_set1(int w, int64_t x)
{
    switch (w) {
    case 1: return _mm512_set1_epi8((char)x);
    case 2: return _mm512_set1_epi16((short)x);
    case 4: return _mm512_set1_epi32((int)x);
    default: return _mm512_set1_epi64(x);
    }
}

VINLINE vec v_sub(int w, vec a, vec b)
{
    switch (w) {
    case 1: return _mm512_sub_epi8(a, b);
    case 2: return _mm512_sub_epi16(a, b);
    case 4: return _mm512_sub_epi32(a, b);
    default: return _mm512_sub_epi64(a, b);
    }
}

VINLINE uint64_t v_gt(int w, vec a, vec b)
{
    switch (w) {
    case 1: return _mm512_cmpgt_epi8_mask(a, b);
    case 2: return _mm512_cmpgt_epi16_mask(a, b);
    case 4: return _mm512_cmpgt_epi32_mask(a, b);
    default: return _mm512_cmpgt_epi64_mask(a, b);
    }
}

VINLINE uint64_t v_ge(int w, vec a, vec b)
{
    switch (w) {
    case 1: return _mm512_cmpge_epi8_mask(a, b);
    case 2: return _mm512_cmpge_epi16_mask(a, b);
    case 4: return _mm512_cmpge_epi32_mask(a, b);
    default: return _mm512_cmpge_epi64_mask(a, b);
    }
}

VINLINE uint64_t v_eq(int w, vec a, vec b)
{
    switch (w) {
    case 1: return _mm512_cmpeq_epi8_mask(a, b);
    case 2: return _mm512_cmpeq_epi16_mask(a, b);
    case 4: return _mm512_cmpeq_epi32_mask(a, b);
    default: return _mm512_cmpeq_epi64_mask(a, b);
    }
}

/* x > y ? b : a, per lane. */
VINLINE vec v_sel_gt(int w, vec x, vec y, vec a, vec b)
{
    switch (w) {
    case 1: return _mm512_mask_mov_epi8(a, _mm512_cmpgt_epi8_mask(x, y), b);
    case 2: return _mm512_mask_mov_epi16(a, _mm512_cmpgt_epi16_mask(x, y), b);
    case 4: return _mm512_mask_mov_epi32(a, _mm512_cmpgt_epi32_mask(x, y), b);
    default: return _mm512_mask_mov_epi64(a, _mm512_cmpgt_epi64_mask(x, y), b);
    }
}

/* All ones in the negative lanes. */
VINLINE vec v_sign(int w, vec v)
{
    switch (w) {
    case 2: return _mm512_srai_epi16(v, 15);
    case 4: return _mm512_srai_epi32(v, 31);
    case 8: return _mm512_srai_epi64(v, 63);
    default: return _mm512_movm_epi8(_mm512_cmplt_epi8_mask(v, _mm512_setzero_si512()));
    }
}

/* Float lanes (w = 4: float32, 8: float64), compared as floats: the larger
   (is_min: the smaller). A lane holding NaN gives either operand. */
VINLINE vec v_fext(int w, int is_min, vec a, vec b)
{
    if (w == 4)
        return _mm512_castps_si512(is_min ? _mm512_min_ps(_mm512_castsi512_ps(a), _mm512_castsi512_ps(b))
                                   : _mm512_max_ps(_mm512_castsi512_ps(a), _mm512_castsi512_ps(b)));
    return _mm512_castpd_si512(is_min ? _mm512_min_pd(_mm512_castsi512_pd(a), _mm512_castsi512_pd(b))
                               : _mm512_max_pd(_mm512_castsi512_pd(a), _mm512_castsi512_pd(b)));
}

/* Float-lane comparisons for the float row scan: lane masks; a comparison
   with NaN is false (ordered), except v_funord. */
typedef uint32_t fmask;
/* A macro: the predicate must reach the intrinsic as a constant. */
#define v_fcmp(w, a, b, pred)                                                             \
    ((w) == 4 ? (fmask)_mm512_cmp_ps_mask(_mm512_castsi512_ps(a), _mm512_castsi512_ps(b), pred) \
              : (fmask)_mm512_cmp_pd_mask(_mm512_castsi512_pd(a), _mm512_castsi512_pd(b), pred))
#define v_fgt(w, a, b) v_fcmp(w, a, b, _CMP_GT_OQ)
#define v_fge(w, a, b) v_fcmp(w, a, b, _CMP_GE_OQ)
#define v_funord(w, a, b) v_fcmp(w, a, b, _CMP_UNORD_Q)
#define v_feq(w, a, b) v_fcmp(w, a, b, _CMP_EQ_OQ)
#define v_fbits(m) ((uint64_t)(m))
VINLINE fmask v_for(fmask a, fmask b) { return a | b; }
VINLINE int v_fany(fmask m) { return m != 0; }
/* m ? b : a, per lane. */
VINLINE vec v_fblend(int w, fmask m, vec a, vec b)
{
    return w == 4 ? _mm512_mask_mov_epi32(a, (__mmask16)m, b) : _mm512_mask_mov_epi64(a, (__mmask8)m, b);
}

VINLINE vec v_max(int w, vec a, vec b)
{
    switch (w) {
    case 1: return _mm512_max_epi8(a, b);
    case 2: return _mm512_max_epi16(a, b);
    case 4: return _mm512_max_epi32(a, b);
    default: return _mm512_max_epi64(a, b);
    }
}

/* Comparison results as the kernels' column fold consumes them. */
typedef uint64_t vmask;
#define v_gtm v_gt
#define v_gem v_ge

/* idx[l] = f for every lane l set in `up` (int64 indices, 8 per store). */
VINLINE void v_store_index(int w, int64_t *idx, vmask up, int64_t f)
{
    const __m512i fv = _mm512_set1_epi64(f);
    for (int c = 0; c < 8 / w; c++)
        _mm512_mask_storeu_epi64(idx + 8 * c, (__mmask8)(up >> (8 * c)), fv);
}

/* rows[l] = r (r < 128) for every lane l set in `up`: one masked byte
   store per vector, where int64 indices would take up to eight. */
#define HAS_STORE_ROW 1
VINLINE void v_store_row(int w, int8_t *rows, vmask up, int r)
{
    switch (w) {
    case 1: _mm512_mask_storeu_epi8(rows, up, _mm512_set1_epi8((char)r)); break;
    case 2: _mm256_mask_storeu_epi8(rows, (__mmask32)up, _mm256_set1_epi8((char)r)); break;
    default: _mm_mask_storeu_epi8(rows, (__mmask16)up, _mm_set1_epi8((char)r)); break;
    }
}

/* Rows shorter than a vector: masked loads (the masked-off lanes are not
   read, so they cannot fault) and a fill for the lanes outside the row. */
#define HAS_ACTIVE_LOAD 1
#define HAS_CMP64 1 /* vpcmpq */
#define HAS_FILTER_SCAN 0 /* every lane width has a one-instruction maximum */
#define FILTER_SCAN(w, kind) 0
VINLINE vec v_load_active(int w, const char *p, uint64_t active)
{
    switch (w) {
    case 1: return _mm512_maskz_loadu_epi8(active, p);
    case 2: return _mm512_maskz_loadu_epi16((__mmask32)active, p);
    case 4: return _mm512_maskz_loadu_epi32((__mmask16)active, p);
    default: return _mm512_maskz_loadu_epi64((__mmask8)active, p);
    }
}

VINLINE vec v_sel_active(int w, uint64_t active, vec a, vec fill)
{
    switch (w) {
    case 1: return _mm512_mask_mov_epi8(fill, active, a);
    case 2: return _mm512_mask_mov_epi16(fill, (__mmask32)active, a);
    case 4: return _mm512_mask_mov_epi32(fill, (__mmask16)active, a);
    default: return _mm512_mask_mov_epi64(fill, (__mmask8)active, a);
    }
}

/* The maximum of each aligned group of `bytes` bytes (a power of two),
   in every lane of the group: the butterfly steps shorter than the group.
   Of keys, or (is_float) of float32/float64 lanes without NaN, their
   extreme (is_min: the minimum). */
#define HEXT(y) (is_float ? v_fext(w, is_min, x, y) : v_max(w, x, y))
VINLINE vec v_hext_within(int w, vec x, int bytes, int is_float, int is_min)
{
    if (bytes > 32)
        x = HEXT(_mm512_shuffle_i64x2(x, x, 0x4e));
    if (bytes > 16)
        x = HEXT(_mm512_shuffle_i64x2(x, x, 0xb1));
    if (bytes > 8)
        x = HEXT(_mm512_shuffle_epi32(x, (_MM_PERM_ENUM)0x4e));
    if (w <= 4 && bytes > 4)
        x = HEXT(_mm512_shuffle_epi32(x, (_MM_PERM_ENUM)0xb1));
    if (w <= 2 && bytes > 2)
        x = HEXT(_mm512_rol_epi32(x, 16));
    if (w == 1 && bytes > 1)
        x = HEXT(_mm512_or_si512(_mm512_slli_epi16(x, 8), _mm512_srli_epi16(x, 8)));
    return x;
}
#undef HEXT

/* Lane 0, sign-extended. */
VINLINE int64_t v_lane0(int w, vec v)
{
    int64_t x = _mm_cvtsi128_si64(_mm512_castsi512_si128(v));
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

#define ISA_TABLE argext_kernels_avx512
#include "kernels/kernels_simd.h"

ISA_TARGET_END

#endif /* ARGEXT_X86_64 */
