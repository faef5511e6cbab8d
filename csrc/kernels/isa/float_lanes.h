/*
 * float_lanes.h - the float-lane primitives of the contract
 * (simd/contract.h), written once for every ISA from its ISA_FOP(op, a, b)
 * (max, min; maxnm, minnm where ISA_FMAX_KEEPS_NAN) and ISA_FCMP(pred, a, b)
 * (gt, ge, eq ordered; unord) on the current float lane (FLANE,
 * simd/for_each_lane.h).
 */
#ifdef FLANE
VINLINE vec F(v_fmax)(vec a, vec b) { return ISA_FOP(max, a, b); }
VINLINE vec F(v_fmin)(vec a, vec b) { return ISA_FOP(min, a, b); }
#if ISA_FMAX_KEEPS_NAN
VINLINE vec F(v_fmax_num)(vec x, vec y) { return ISA_FOP(maxnm, x, y); }
VINLINE vec F(v_fmin_num)(vec x, vec y) { return ISA_FOP(minnm, x, y); }
#endif
VINLINE fmask F(v_fgt)(vec a, vec b) { return ISA_FCMP(gt, a, b); }
VINLINE fmask F(v_fge)(vec a, vec b) { return ISA_FCMP(ge, a, b); }
VINLINE fmask F(v_feq)(vec a, vec b) { return ISA_FCMP(eq, a, b); }
VINLINE fmask F(v_funord)(vec a, vec b) { return ISA_FCMP(unord, a, b); }
#endif
