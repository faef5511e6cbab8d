/*
 * x86_lanes.h - lane primitives that SSE2, SSE4.2, AVX2 and AVX-512 spell
 * alike but for the vector width: X86_EPI(sub) is _mm_sub_epi32 in sse.h's
 * s32 lane, _mm512_sub_epi32 in avx512.c's. Included per lane width
 * (simd/for_each_lane.h) by an ISA that defines X86_SET1_EPI64 (x86.h); one
 * whose compares give vectors (SSE, AVX2: X86_VECTOR_COMPARES) gets them here
 * too, but for 64-bit lanes where X86_CMP64 is 0 (SSE2 emulates them).
 */

#if W == 8
VINLINE vec L(v_set1)(int64_t x) { return X86_SET1_EPI64(x); }
#else
VINLINE vec L(v_set1)(int64_t x) { return X86_EPI(set1)((LANE_INT)x); }
#endif
VINLINE vec L(v_sub)(vec a, vec b) { return X86_EPI(sub)(a, b); }

#if X86_VECTOR_COMPARES && (W < 8 || X86_CMP64)
VINLINE vec L(v_cmpgt)(vec a, vec b) { return X86_EPI(cmpgt)(a, b); }
VINLINE vec L(v_cmpeq)(vec a, vec b) { return X86_EPI(cmpeq)(a, b); }
#endif
#if X86_VECTOR_COMPARES
/* a >= b: not b > a. */
VINLINE vec L(v_cmpge)(vec a, vec b) { return v_xor(L(v_cmpgt)(b, a), L(v_set1)(-1)); }
#endif
