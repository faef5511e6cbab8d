/*
 * derived.h - the primitives of one lane width that the template builds
 * from the ISA's (contract.h), written once for every ISA
 * (for_each_lane.h).
 */

/* Lane 0, sign-extended. */
VINLINE int64_t L(v_lane0)(vec v) { return (LANE_INT)v_low64(v); }

#if W == 1
VINLINE vec L(v_bswap)(vec x) { return x; } /* one byte: nothing to swap */
#endif

#ifdef FLANE
/* Float lanes: the larger (is_min: the smaller). */
VINLINE vec F(v_fext)(int is_min, vec a, vec b) { return is_min ? F(v_fmin)(a, b) : F(v_fmax)(a, b); }

/* The extreme of x and a non-NaN y, y where x is NaN. */
VINLINE vec F(v_fext_num)(int is_min, vec x, vec y)
{
#if ISA_FMAX_KEEPS_NAN
    return is_min ? F(v_fmin_num)(x, y) : F(v_fmax_num)(x, y);
#else
    return F(v_fext)(is_min, x, y); /* the second operand where either is NaN */
#endif
}
#endif

/* One step of v_hext_within: the key maximum, or (is_float) the float
   extreme (is_min: the minimum) of lanes without NaN. */
VINLINE vec L(hext_step)(vec x, vec y, int is_float, int is_min)
{
#ifdef FLANE
    if (is_float)
        return F(v_fext)(is_min, x, y);
#endif
    (void)is_float, (void)is_min;
    return L(v_max)(x, y);
}

/* The extreme of each aligned group of `bytes` bytes (a power of two, from
   W to V_BYTES), in every lane of the group: the butterfly steps shorter
   than the group. */
VINLINE vec L(v_hext_within)(vec x, int bytes, int is_float, int is_min)
{
#if V_BYTES >= 64
    if (bytes > 32)
        x = L(hext_step)(x, v_swap512(x), is_float, is_min);
#endif
#if V_BYTES >= 32
    if (bytes > 16)
        x = L(hext_step)(x, v_swap256(x), is_float, is_min);
#endif
    if (bytes > 8)
        x = L(hext_step)(x, v_swap128(x), is_float, is_min);
    if (W <= 4 && bytes > 4)
        x = L(hext_step)(x, v_swap64(x), is_float, is_min);
    if (W <= 2 && bytes > 2)
        x = L(hext_step)(x, v_swap32(x), is_float, is_min);
    if (W == 1 && bytes > 1)
        x = L(hext_step)(x, v_swap16(x), is_float, is_min);
    return x;
}
VINLINE vec L(v_hmax_within)(vec x, int bytes) { return L(v_hext_within)(x, bytes, 0, 0); }
VINLINE vec L(v_hmax)(vec x) { return L(v_hext_within)(x, V_BYTES, 0, 0); }
