/*
 * x86.h - what the x86-64 ISA files (sse.h, avx2.c, avx512.c) spell alike
 * but for the vector width, from the ISA's X86_PREFIX (_mm, _mm256, _mm512),
 * X86_VBITS (128, 256, 512) and X86_LOW128(v) (its low 128 bits):
 *   X86_EPI(sub)       _mm256_sub_epi32 in avx2.c's s32 lane (for_each_lane.h)
 *   X86_EPI_MASK(op)   the same, comparing into a mask register (AVX-512)
 *   X86_F(max)         _mm256_max_ps in avx2.c's f32 lane
 *   X86_TO_F(v), X86_FROM_F(x)   an integer vector as the lane's floats and back
 * and the whole-vector primitives of the contract (simd/contract.h).
 */
#ifndef ARGEXT_ISA_X86_H
#define ARGEXT_ISA_X86_H

#define X86_EPI(op) X86_PASTE(X86_PREFIX, op, WBITS)
#define X86_PASTE(prefix, op, bits) X86_PASTE2(prefix, op, bits)
#define X86_PASTE2(prefix, op, bits) prefix##_##op##_epi##bits
#define X86_EPI_MASK(op) X86_PASTE_MASK(X86_PREFIX, op, WBITS)
#define X86_PASTE_MASK(prefix, op, bits) X86_PASTE_MASK2(prefix, op, bits)
#define X86_PASTE_MASK2(prefix, op, bits) prefix##_##op##_epi##bits##_mask

#define X86_FS_f32 ps
#define X86_FS_f64 pd
#define X86_F(op) X86_F1(X86_PREFIX, op, FLANE)
#define X86_F1(prefix, op, flane) X86_F2(prefix, op, flane)
#define X86_F2(prefix, op, flane) X86_F3(prefix, op, X86_FS_##flane)
#define X86_F3(prefix, op, fs) X86_F4(prefix, op, fs)
#define X86_F4(prefix, op, fs) prefix##_##op##_##fs
#define X86_TO_F(v) X86_CAST(X86_PREFIX, castsi, X86_VBITS, _, FLANE)(v)
#define X86_FROM_F(x) X86_CAST(X86_PREFIX, cast, FLANE, _si, X86_VBITS)(x)
#define X86_CAST(prefix, cast, a, sep, b) X86_CAST2(prefix, cast, a, sep, b)
#define X86_CAST2(prefix, cast, a, sep, b) X86_CAST3(prefix, cast, X86_FS_OR_BITS(a), sep, X86_FS_OR_BITS(b))
#define X86_CAST3(prefix, cast, a, sep, b) X86_CAST4(prefix, cast, a, sep, b)
#define X86_CAST4(prefix, cast, a, sep, b) prefix##_##cast##a##sep##b
#define X86_FS_OR_BITS(x) X86_FSB_##x
#define X86_FSB_f32 ps
#define X86_FSB_f64 pd
#define X86_FSB_128 128
#define X86_FSB_256 256
#define X86_FSB_512 512
#define X86_FMASK(op) X86_FMASK2(X86_F(op))
#define X86_FMASK2(name) X86_FMASK3(name)
#define X86_FMASK3(name) name##_mask
/* AVX compare predicates: ordered (false with NaN), and the NaN test. */
#define X86_PRED_gt _CMP_GT_OQ
#define X86_PRED_ge _CMP_GE_OQ
#define X86_PRED_eq _CMP_EQ_OQ
#define X86_PRED_unord _CMP_UNORD_Q
/* The lane's float operation op on integer vectors a and b. */
#define X86_FOP(op, a, b) X86_FROM_F(X86_F(op)(X86_TO_F(a), X86_TO_F(b)))

#define X86_SI(op) X86_SI2(X86_PREFIX, op, X86_VBITS)
#define X86_SI2(prefix, op, bits) X86_SI3(prefix, op, bits)
#define X86_SI3(prefix, op, bits) prefix##_##op##_si##bits

/* The low 8 bytes of a byte shuffle's control (pshufb) that reverses each
   w-byte element; the high 8 are these plus 8 in every byte. */
#define ARGEXT_BSWAP_LO(w)                             \
    ((w) == 2   ? INT64_C(0x0607040502030001)          \
     : (w) == 4 ? INT64_C(0x0405060700010203)          \
                : INT64_C(0x0001020304050607))
#define ARGEXT_BSWAP_HI(w) (ARGEXT_BSWAP_LO(w) + INT64_C(0x0808080808080808))

#endif /* ARGEXT_ISA_X86_H */
