/*
 * for_each_lane.h - includes LANE_FILE once per integer lane width, with
 *   LANE     the lane's name: s8, s16, s32, s64 (L(v_max) is v_max_s32)
 *   W        its bytes, WBITS its bits, LANE_INT its C type
 *   FLANE    the float lane of that width (f32, f64; undefined for s8, s16):
 *            F(v_fmax) is v_fmax_f32
 * so that a file written once becomes explicit per-width code: each width's
 * functions call that width's primitives, chosen here at compile time.
 */
#ifndef LANE_FILE
#error "for_each_lane.h: define LANE_FILE"
#endif

#define L(name) ARGEXT_LANE_PASTE(name, LANE)
#define F(name) ARGEXT_LANE_PASTE(name, FLANE)
#define ARGEXT_LANE_PASTE(name, lane) ARGEXT_LANE_PASTE2(name, lane)
#define ARGEXT_LANE_PASTE2(name, lane) name##_##lane

#define LANE s8
#define W 1
#define WBITS 8
#define LANE_INT int8_t
#include LANE_FILE
#undef LANE_INT
#undef WBITS
#undef W
#undef LANE

#define LANE s16
#define W 2
#define WBITS 16
#define LANE_INT int16_t
#include LANE_FILE
#undef LANE_INT
#undef WBITS
#undef W
#undef LANE

#define LANE s32
#define FLANE f32
#define W 4
#define WBITS 32
#define LANE_INT int32_t
#include LANE_FILE
#undef LANE_INT
#undef WBITS
#undef W
#undef FLANE
#undef LANE

#define LANE s64
#define FLANE f64
#define W 8
#define WBITS 64
#define LANE_INT int64_t
#include LANE_FILE
#undef LANE_INT
#undef WBITS
#undef W
#undef FLANE
#undef LANE

#undef F
#undef L
#undef LANE_FILE
