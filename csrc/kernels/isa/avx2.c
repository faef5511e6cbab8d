/*
 * avx2.c - the SIMD contract's primitives (simd/contract.h) on 256-bit AVX2
 * vectors, compiled for AVX2 by its target (isa_list.h; MSVC: /arch:AVX2
 * from the build), then the SIMD template. dispatch.c runs it only where
 * cpuid and xgetbv report AVX2 and OS support for the YMM state.
 */
#include "kernels/platform.h"

#if ARGEXT_ON_X86_64(ARGEXT_KEPT_AVX2(1))
#include <immintrin.h>
#include <string.h>

#include "kernels/isa/x86.h"
#include "kernels/targets.h"

ISA_TARGET_BEGIN(AVX2)

typedef __m256i vec;
#define V_BYTES 32
#define X86_PREFIX _mm256
#define X86_VBITS 256
#define X86_LOW128(v) _mm256_castsi256_si128(v)
#define X86_SET1_EPI64 _mm256_set1_epi64x
/* movemask_epi8: one mask bit per byte, so w bits per w-byte lane. */
#define MASK_BITS(w) (w)

#define ISA_CMP_S64 1 /* pcmpgtq */
#define ISA_FILTER_SCAN 0
#define ISA_MASKED_LOAD 0
#define ISA_MASKED_STORE 1 /* row bytes blended, not masked stores (v_store_row_S below) */
#define ISA_LANE_INDEX 0
/* AMD Zen 3, axis 0 after row 256, all pairs against rows alone: float32
   (1024, 1024) in cache 1.6x, (8192, 1024) from DRAM 1.4x, int32 1.2x,
   int8 1.0-1.1x, int64 0.96x */
#define ISA_FOLD_ALL_PAIRS 1
#define ISA_POPCOUNT 1
#define ISA_COMPRESS 0
#define ISA_MINMAX_WIDTHS 7 /* pmaxs/pmins b, w, d; not q */
#define ISA_FMAX_KEEPS_NAN 0 /* maxps/minps return their second operand for NaN */

#include "kernels/isa/x86_vector.h"
VINLINE uint64_t v_mask(vec m) { return (uint32_t)_mm256_movemask_epi8(m); }
VINLINE vec v_blend(vec m, vec a, vec b) { return _mm256_blendv_epi8(a, b, m); }
#define ISA_BLEND_LANES 1
VINLINE vec v_blend_32(vec m, vec a, vec b)
{
    return _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), _mm256_castsi256_ps(m)));
}
VINLINE vec v_blend_64(vec m, vec a, vec b)
{
    return _mm256_castpd_si256(_mm256_blendv_pd(_mm256_castsi256_pd(a), _mm256_castsi256_pd(b), _mm256_castsi256_pd(m)));
}

/* The halves of each aligned group of 16 .. 256 bits exchanged. */
VINLINE vec v_swap16(vec x) { return _mm256_or_si256(_mm256_slli_epi16(x, 8), _mm256_srli_epi16(x, 8)); }
VINLINE vec v_swap32(vec x) { return _mm256_or_si256(_mm256_slli_epi32(x, 16), _mm256_srli_epi32(x, 16)); }
VINLINE vec v_swap64(vec x) { return _mm256_shuffle_epi32(x, 0xb1); }
VINLINE vec v_swap128(vec x) { return _mm256_shuffle_epi32(x, 0x4e); }
VINLINE vec v_swap256(vec x) { return _mm256_permute2x128_si256(x, x, 1); }

#define X86_VECTOR_COMPARES 1
#define X86_CMP64 1
#define LANE_FILE "kernels/isa/x86_lanes.h"
#include "kernels/simd/for_each_lane.h"
#include "kernels/isa/vector_masks.h"

/* All ones in the negative lanes. */
VINLINE vec v_sign_s8(vec v) { return v_cmpgt_s8(_mm256_setzero_si256(), v); }
VINLINE vec v_sign_s16(vec v) { return v_cmpgt_s16(_mm256_setzero_si256(), v); }
VINLINE vec v_sign_s32(vec v) { return v_cmpgt_s32(_mm256_setzero_si256(), v); }
VINLINE vec v_sign_s64(vec v) { return v_cmpgt_s64(_mm256_setzero_si256(), v); }

VINLINE vec v_max_s8(vec a, vec b) { return _mm256_max_epi8(a, b); }
VINLINE vec v_max_s16(vec a, vec b) { return _mm256_max_epi16(a, b); }
VINLINE vec v_max_s32(vec a, vec b) { return _mm256_max_epi32(a, b); }
VINLINE vec v_max_s64(vec a, vec b) { return v_sel_gt_s64(b, a, a, b); }
VINLINE vec v_min_s8(vec a, vec b) { return _mm256_min_epi8(a, b); }
VINLINE vec v_min_s16(vec a, vec b) { return _mm256_min_epi16(a, b); }
VINLINE vec v_min_s32(vec a, vec b) { return _mm256_min_epi32(a, b); }
VINLINE vec v_min_s64(vec a, vec b) { return v_sel_gt_s64(a, b, a, b); }

/* Each element's bytes reversed (byte-swapped input). */
#define BSWAP(w) _mm256_shuffle_epi8(x, _mm256_set_epi64x(ARGEXT_BSWAP_HI(w), ARGEXT_BSWAP_LO(w), \
                                                          ARGEXT_BSWAP_HI(w), ARGEXT_BSWAP_LO(w)))
VINLINE vec v_bswap_s16(vec x) { return BSWAP(2); }
VINLINE vec v_bswap_s32(vec x) { return BSWAP(4); }
VINLINE vec v_bswap_s64(vec x) { return BSWAP(8); }
#undef BSWAP

/* Float lanes, compared as floats (float_lanes.h). */
#define ISA_FOP X86_FOP
#define ISA_FCMP(pred, a, b) X86_FROM_F(X86_F(cmp)(X86_TO_F(a), X86_TO_F(b), X86_PRED_##pred))
#define LANE_FILE "kernels/isa/float_lanes.h"
#include "kernels/simd/for_each_lane.h"
VINLINE int v_fany(fmask m) { return !_mm256_testz_si256(m, m); }

/* idx[l] = f for every lane l set in `up` (int64 indices, 4 per store):
   the lane masks sign-extended to 64 bits, a quarter vector at a time. */
VINLINE void store_index_quad(int64_t *idx, __m256i lanes, int64_t f)
{
    __m256i *q = (__m256i *)idx;
    _mm256_storeu_si256(q, _mm256_blendv_epi8(_mm256_loadu_si256(q), _mm256_set1_epi64x(f), lanes));
}
VINLINE void v_store_index_s8(int64_t *idx, vmask up, int64_t f)
{
    unsigned char m[32];
    _mm256_storeu_si256((__m256i *)m, up);
    for (int c = 0; c < 8; c++) {
        int32_t x;
        memcpy(&x, m + 4 * c, 4);
        store_index_quad(idx + 4 * c, _mm256_cvtepi8_epi64(_mm_cvtsi32_si128(x)), f);
    }
}
VINLINE void v_store_index_s16(int64_t *idx, vmask up, int64_t f)
{
    unsigned char m[32];
    _mm256_storeu_si256((__m256i *)m, up);
    for (int c = 0; c < 4; c++)
        store_index_quad(idx + 4 * c, _mm256_cvtepi16_epi64(_mm_loadl_epi64((const __m128i *)(m + 8 * c))), f);
}
VINLINE void v_store_index_s32(int64_t *idx, vmask up, int64_t f)
{
    store_index_quad(idx, _mm256_cvtepi32_epi64(_mm256_castsi256_si128(up)), f);
    store_index_quad(idx + 4, _mm256_cvtepi32_epi64(_mm256_extracti128_si256(up, 1)), f);
}
VINLINE void v_store_index_s64(int64_t *idx, vmask up, int64_t f) { store_index_quad(idx, up, f); }

/* rows[l] = r for every lane l set in `up`: the lane masks narrowed to one
   byte a lane and blended into the row bytes (a load and a store of them;
   AVX2 has no masked byte store). */
VINLINE void v_store_row_s8(int8_t *rows, vmask up, int r)
{
    __m256i *q = (__m256i *)rows;
    _mm256_storeu_si256(q, _mm256_blendv_epi8(_mm256_loadu_si256(q), _mm256_set1_epi8((char)r), up));
}
VINLINE void v_store_row_s16(int8_t *rows, vmask up, int r)
{
    __m128i *q = (__m128i *)rows;
    const __m128i m = _mm_packs_epi16(_mm256_castsi256_si128(up), _mm256_extracti128_si256(up, 1));
    _mm_storeu_si128(q, _mm_blendv_epi8(_mm_loadu_si128(q), _mm_set1_epi8((char)r), m));
}
/* 4 or 8 lanes: their masks narrowed to the low 4 or 8 bytes. */
VINLINE __m128i row_bytes_mask(vmask up, int w)
{
    __m128i m = _mm_packs_epi32(_mm256_castsi256_si128(up), _mm256_extracti128_si256(up, 1));
    m = _mm_packs_epi16(m, m);
    return w == 8 ? _mm_shuffle_epi8(m, _mm_setr_epi8(0, 2, 4, 6, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1)) : m;
}
VINLINE void v_store_row_s32(int8_t *rows, vmask up, int r)
{
    const __m128i old = _mm_loadl_epi64((const __m128i *)rows);
    _mm_storel_epi64((__m128i *)rows, _mm_blendv_epi8(old, _mm_set1_epi8((char)r), row_bytes_mask(up, 4)));
}
VINLINE void v_store_row_s64(int8_t *rows, vmask up, int r)
{
    int32_t old;
    memcpy(&old, rows, 4);
    const __m128i b = _mm_blendv_epi8(_mm_cvtsi32_si128(old), _mm_set1_epi8((char)r), row_bytes_mask(up, 8));
    const int32_t x = _mm_cvtsi128_si32(b);
    memcpy(rows, &x, 4);
}

#define ISA AVX2
#include "kernels/simd/template.h"

ISA_TARGET_END

#endif /* ARGEXT_ON_X86_64(ARGEXT_KEPT_AVX2(1)) */
