/*
 * neon_lanes.h - neon.c's primitives of one lane width
 * (simd/for_each_lane.h): the lane's intrinsics (NEON_S(vsubq) is
 * vsubq_s32 in the s32 lane) on the int8x16_t vectors reinterpreted as
 * the lane's type (NEON_IN) and back (NEON_OUT; compares give unsigned
 * lanes).
 */
#define NEON_S(op) NEON_NAME(op, s, WBITS)
#define NEON_NAME(op, t, bits) NEON_NAME2(op, t, bits)
#define NEON_NAME2(op, t, bits) op##_##t##bits
#define NEON_PASTE3(a, b, c) NEON_PASTE3_(a, b, c)
#define NEON_PASTE3_(a, b, c) a##b##c
#if W == 1
#define NEON_IN(v) (v)
#define NEON_OUT(x) (x)
#define NEON_OUT_U(x) vreinterpretq_s8_u8(x)
#else
#define NEON_IN(v) NEON_PASTE3(vreinterpretq_s, WBITS, _s8)(v)
#define NEON_OUT(x) NEON_PASTE3(vreinterpretq_s8_s, WBITS, )(x)
#define NEON_OUT_U(x) NEON_PASTE3(vreinterpretq_s8_u, WBITS, )(x)
#endif

VINLINE vec L(v_set1)(int64_t x) { return NEON_OUT(NEON_S(vdupq_n)((LANE_INT)x)); }
VINLINE vec L(v_sub)(vec a, vec b) { return NEON_OUT(NEON_S(vsubq)(NEON_IN(a), NEON_IN(b))); }
/* All ones where a > b, a >= b, a == b (signed lanes). */
VINLINE vec L(v_cmpgt)(vec a, vec b) { return NEON_OUT_U(NEON_S(vcgtq)(NEON_IN(a), NEON_IN(b))); }
VINLINE vec L(v_cmpge)(vec a, vec b) { return NEON_OUT_U(NEON_S(vcgeq)(NEON_IN(a), NEON_IN(b))); }
VINLINE vec L(v_cmpeq)(vec a, vec b) { return NEON_OUT_U(NEON_S(vceqq)(NEON_IN(a), NEON_IN(b))); }
/* All ones in the negative lanes. */
VINLINE vec L(v_sign)(vec v) { return NEON_OUT(NEON_S(vshrq_n)(NEON_IN(v), WBITS - 1)); }
#if W < 8
VINLINE vec L(v_max)(vec a, vec b) { return NEON_OUT(NEON_S(vmaxq)(NEON_IN(a), NEON_IN(b))); }
VINLINE vec L(v_min)(vec a, vec b) { return NEON_OUT(NEON_S(vminq)(NEON_IN(a), NEON_IN(b))); }
#endif

#undef NEON_IN
#undef NEON_OUT
#undef NEON_OUT_U
