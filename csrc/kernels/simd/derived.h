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

/* Lanes where x goes before the best b: larger (is_min: smaller), or
   equal too for the last occurrence; false where either is NaN. */
VINLINE fmask F(v_fbetter)(vec x, vec b, int is_min, int last)
{
    return last ? (is_min ? F(v_fge)(b, x) : F(v_fge)(x, b)) : (is_min ? F(v_fgt)(b, x) : F(v_fgt)(x, b));
}

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

/* The lanes of v set in bits (a comparison's bits) stored from keys, in
   lane order, and their indices (i + lane) from idx; both have a whole
   vector's lanes of room (the places past the stored ones may be written).
   Returns how many. */
VINLINE int64_t L(v_compress_store)(LANE_INT *keys, int32_t *idx, vec v, uint64_t bits, int32_t i)
{
#if ISA_COMPRESS && W >= 4
    v_store((char *)keys, L(v_compress)(v, bits));
    L(v_compress_index)(idx, i, bits);
    return popcount64(bits) / MASK_BITS(W);
#else
    LANE_INT lane[V_BYTES / W];
    v_store((char *)lane, v);
    int64_t c = 0;
    for (; bits; c++) {
        int l = ctz64(bits) / MASK_BITS(W);
        keys[c] = lane[l];
        idx[c] = i + l;
        bits &= ~(((UINT64_C(1) << MASK_BITS(W)) - 1) << (l * MASK_BITS(W)));
    }
    return c;
#endif
}
