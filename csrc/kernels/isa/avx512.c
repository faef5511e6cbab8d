/*
 * avx512.c - the SIMD contract's primitives (simd/contract.h) on 512-bit
 * AVX-512 F/BW vectors with mask registers, compiled for AVX-512 F/BW/VL/DQ
 * by its target (isa_list.h; MSVC: /arch:AVX512 from the build), then the
 * SIMD template. dispatch.c runs it only where cpuid and the OS (xgetbv; on
 * macOS, the kernel's lazy ZMM enable) report those extensions and support
 * for the ZMM state.
 */
#include "kernels/platform.h"

#if ARGEXT_ON_X86_64(ARGEXT_KEPT_AVX512(1))
#include <immintrin.h>
#include <string.h>

#include "kernels/isa/x86.h"
#include "kernels/targets.h"

ISA_TARGET_BEGIN(AVX512)

typedef __m512i vec;
#define V_BYTES 64
#define X86_PREFIX _mm512
#define X86_VBITS 512
#define X86_LOW128(v) _mm512_castsi512_si128(v)
#define X86_SET1_EPI64 _mm512_set1_epi64
/* Comparisons give mask registers: one bit per lane. */
#define MASK_BITS(w) 1

#define ISA_CMP_S64 1 /* vpcmpq */
#define ISA_FILTER_SCAN 0
#define ISA_POPCOUNT 1
#define ISA_FMAX_KEEPS_NAN 0 /* maxps/minps return their second operand for NaN */
/* Rows shorter than a vector: masked loads (the masked-off lanes are not
   read, so they cannot fault) and a fill for the lanes outside the row. */
#define ISA_MASKED_LOAD 1
/* The column fold's rows note each column's row (r < 128 in a chunk) in a byte
   for every lane set in `up`: one masked byte store per vector, where int64
   indices would take up to eight. */
#define ISA_MASKED_STORE 1
/* Dense short rows' indices, eight rows at a time, in the int64 lanes of
   one vector (v_row_index8): the highest or lowest set bit of each lane by
   its exponent as a double (vcvtuqq2pd). */
#define ISA_LANE_INDEX 1
#define ISA_FOLD_ALL_PAIRS 0 /* Zen 5, pairs then by keys: (4096, 4096) float32 0.8-0.9x */
/* TopK's short rows gather their candidates by vpcompressd/q into a
   register, then a whole store (Zen 4 microcodes the compress to memory). */
#define ISA_COMPRESS 1
#define ISA_MINMAX_WIDTHS 15

#include "kernels/isa/x86_vector.h"

/* The halves of each aligned group of 16 .. 512 bits exchanged. */
VINLINE vec v_swap16(vec x) { return _mm512_or_si512(_mm512_slli_epi16(x, 8), _mm512_srli_epi16(x, 8)); }
VINLINE vec v_swap32(vec x) { return _mm512_rol_epi32(x, 16); }
VINLINE vec v_swap64(vec x) { return _mm512_shuffle_epi32(x, (_MM_PERM_ENUM)0xb1); }
VINLINE vec v_swap128(vec x) { return _mm512_shuffle_epi32(x, (_MM_PERM_ENUM)0x4e); }
VINLINE vec v_swap256(vec x) { return _mm512_shuffle_i64x2(x, x, 0xb1); }
VINLINE vec v_swap512(vec x) { return _mm512_shuffle_i64x2(x, x, 0x4e); }

typedef uint64_t vmask; /* a comparison's mask register: one bit per lane */
#define X86_VECTOR_COMPARES 0 /* into mask registers: avx512_lanes.h */
#define LANE_FILE "kernels/isa/x86_lanes.h"
#include "kernels/simd/for_each_lane.h"
#define LANE_FILE "kernels/isa/avx512_lanes.h"
#include "kernels/simd/for_each_lane.h"

/* All ones in the negative lanes. */
VINLINE vec v_sign_s8(vec v) { return _mm512_movm_epi8(_mm512_cmplt_epi8_mask(v, _mm512_setzero_si512())); }
VINLINE vec v_sign_s16(vec v) { return _mm512_srai_epi16(v, 15); }
VINLINE vec v_sign_s32(vec v) { return _mm512_srai_epi32(v, 31); }
VINLINE vec v_sign_s64(vec v) { return _mm512_srai_epi64(v, 63); }

/* Each element's bytes reversed (byte-swapped input). */
#define BSWAP(w)                                                                                 \
    _mm512_shuffle_epi8(x, _mm512_set_epi64(ARGEXT_BSWAP_HI(w), ARGEXT_BSWAP_LO(w), ARGEXT_BSWAP_HI(w), \
                                            ARGEXT_BSWAP_LO(w), ARGEXT_BSWAP_HI(w), ARGEXT_BSWAP_LO(w), \
                                            ARGEXT_BSWAP_HI(w), ARGEXT_BSWAP_LO(w)))
VINLINE vec v_bswap_s16(vec x) { return BSWAP(2); }
VINLINE vec v_bswap_s32(vec x) { return BSWAP(4); }
VINLINE vec v_bswap_s64(vec x) { return BSWAP(8); }
#undef BSWAP

/* Float lanes, compared as floats into lane masks (float_lanes.h). */
typedef uint32_t fmask;
#define ISA_FOP X86_FOP
#define ISA_FCMP(pred, a, b) (fmask) X86_FMASK(cmp)(X86_TO_F(a), X86_TO_F(b), X86_PRED_##pred)
#define LANE_FILE "kernels/isa/float_lanes.h"
#include "kernels/simd/for_each_lane.h"
VINLINE fmask v_for(fmask a, fmask b) { return a | b; }
VINLINE int v_fany(fmask m) { return m != 0; }
VINLINE uint64_t v_fbits(fmask m) { return m; }
VINLINE vec v_fblend_f32(fmask m, vec a, vec b) { return _mm512_mask_mov_epi32(a, (__mmask16)m, b); }
VINLINE vec v_fblend_f64(fmask m, vec a, vec b) { return _mm512_mask_mov_epi64(a, (__mmask8)m, b); }
VINLINE vmask v_fvmask_f32(fmask m) { return m; } /* a bit per lane in both */
VINLINE vmask v_fvmask_f64(fmask m) { return m; }

/* idx[l] = f for every lane l set in `up` (int64 indices, 8 per store). */
VINLINE void v_store_index_s64(int64_t *idx, vmask up, int64_t f)
{
    _mm512_mask_storeu_epi64(idx, (__mmask8)up, _mm512_set1_epi64(f));
}
VINLINE void v_store_index_s32(int64_t *idx, vmask up, int64_t f)
{
    v_store_index_s64(idx, up, f);
    v_store_index_s64(idx + 8, up >> 8, f);
}
VINLINE void v_store_index_s16(int64_t *idx, vmask up, int64_t f)
{
    v_store_index_s32(idx, up, f);
    v_store_index_s32(idx + 16, up >> 16, f);
}
VINLINE void v_store_index_s8(int64_t *idx, vmask up, int64_t f)
{
    v_store_index_s16(idx, up, f);
    v_store_index_s16(idx + 32, up >> 32, f);
}

/* The lanes set in bits packed from lane 0, in order; their indices (i +
   lane) likewise as int32, from idx (a vector's room). */
VINLINE vec v_compress_s32(vec v, uint64_t bits) { return _mm512_maskz_compress_epi32((__mmask16)bits, v); }
VINLINE vec v_compress_s64(vec v, uint64_t bits) { return _mm512_maskz_compress_epi64((__mmask8)bits, v); }
VINLINE void v_compress_index_s32(int32_t *idx, int32_t i, uint64_t bits)
{
    const __m512i iota = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    __m512i x = _mm512_add_epi32(iota, _mm512_set1_epi32(i));
    _mm512_storeu_si512(idx, _mm512_maskz_compress_epi32((__mmask16)bits, x));
}
VINLINE void v_compress_index_s64(int32_t *idx, int32_t i, uint64_t bits)
{
    __m256i x = _mm256_add_epi32(_mm256_set_epi32(7, 6, 5, 4, 3, 2, 1, 0), _mm256_set1_epi32(i));
    _mm256_storeu_si256((__m256i *)idx, _mm256_maskz_compress_epi32((__mmask8)bits, x));
}

VINLINE void v_store_row_s8(int8_t *rows, vmask up, int r) { _mm512_mask_storeu_epi8(rows, up, _mm512_set1_epi8((char)r)); }
VINLINE void v_store_row_s16(int8_t *rows, vmask up, int r)
{
    _mm256_mask_storeu_epi8(rows, (__mmask32)up, _mm256_set1_epi8((char)r));
}
VINLINE void v_store_row_s32(int8_t *rows, vmask up, int r)
{
    _mm_mask_storeu_epi8(rows, (__mmask16)up, _mm_set1_epi8((char)r));
}
VINLINE void v_store_row_s64(int8_t *rows, vmask up, int r) { v_store_row_s32(rows, up, r); }

/* Rows r0 .. r0 + 7 of masks holding `per` rows of `bits` bits each (row r
   in e[r / per] from bit (r % per) * bits; every row has a bit set): in
   int64 lane l, the index of row r0 + l's first set bit (last: its last). */
VINLINE vec v_row_index8(const uint64_t *e, int64_t r0, int64_t per, int64_t bits, int last)
{
#define ROW_MASK(l) (long long)e[(r0 + (l)) / per]
#define ROW_SHIFT(l) (long long)(((r0 + (l)) % per) * bits)
    __m512i m = _mm512_set_epi64(ROW_MASK(7), ROW_MASK(6), ROW_MASK(5), ROW_MASK(4), ROW_MASK(3),
                                 ROW_MASK(2), ROW_MASK(1), ROW_MASK(0));
    __m512i sh = _mm512_set_epi64(ROW_SHIFT(7), ROW_SHIFT(6), ROW_SHIFT(5), ROW_SHIFT(4),
                                  ROW_SHIFT(3), ROW_SHIFT(2), ROW_SHIFT(1), ROW_SHIFT(0));
#undef ROW_SHIFT
#undef ROW_MASK
    m = _mm512_srlv_epi64(m, sh);
    if (last) /* the row's bits alone; the highest set bit is the exponent */
        m = bits < 64 ? _mm512_and_si512(m, _mm512_set1_epi64((long long)((UINT64_C(1) << bits) - 1))) : m;
    else /* the lowest set bit alone (it lies in the row's bits) */
        m = _mm512_and_si512(m, _mm512_sub_epi64(_mm512_setzero_si512(), m));
    /* truncated, so that a row of 64 bits cannot round up to the next power of two */
    __m512d d = _mm512_cvt_roundepu64_pd(m, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    return _mm512_sub_epi64(_mm512_srli_epi64(_mm512_castpd_si512(d), 52), _mm512_set1_epi64(1023));
}

#define ISA AVX512
#include "kernels/simd/template.h"

ISA_TARGET_END

#endif /* ARGEXT_ON_X86_64(ARGEXT_KEPT_AVX512(1)) */
