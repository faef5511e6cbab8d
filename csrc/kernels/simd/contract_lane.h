/* contract.h's check of one lane width's primitives (for_each_lane.h). */

static inline void L(contract)(void)
{
    vec (*set1)(int64_t) = L(v_set1);
    contract_binary binary[] = {L(v_sub), L(v_max), L(v_min)};
    contract_unary sign = L(v_sign);
    vec (*sel_gt[])(vec, vec, vec, vec) = {L(v_sel_gt), L(v_sel_gt_lanes)};
    contract_compare compare[] = {L(v_gt), L(v_ge), L(v_eq)};
    contract_vmask masks[] = {L(v_gtm), L(v_gem)};
    void (*store_index)(int64_t *, vmask, int64_t) = L(v_store_index);
    (void)set1, (void)binary, (void)sign, (void)sel_gt, (void)compare, (void)masks, (void)store_index;
#if W >= 2
    contract_unary bswap = L(v_bswap);
    (void)bswap;
#endif
#ifdef FLANE
    contract_binary fext[] = {F(v_fmax), F(v_fmin)};
    contract_fcompare fcompare[] = {F(v_fgt), F(v_fge), F(v_feq), F(v_funord)};
    vec (*fblend)(fmask, vec, vec) = F(v_fblend);
    vmask (*fvmask)(fmask) = F(v_fvmask);
    (void)fext, (void)fcompare, (void)fblend, (void)fvmask;
#if ISA_FMAX_KEEPS_NAN
    contract_binary fext_num[] = {F(v_fmax_num), F(v_fmin_num)};
    (void)fext_num;
#endif
#if ISA_FILTER_SCAN
    vec (*filter)(vec, vec) = L(v_filter);
    int (*threshold)(int64_t, int, vec *) = L(v_filter_threshold);
    int (*filter_any)(vec) = L(v_filter_any);
    (void)filter, (void)threshold, (void)filter_any;
#endif
#endif
#if ISA_MASKED_LOAD
    vec (*load_active)(const char *, uint64_t) = L(v_load_active);
    vec (*sel_active)(uint64_t, vec, vec) = L(v_sel_active);
    (void)load_active, (void)sel_active;
#endif
#if ISA_COMPRESS && W >= 4
    contract_unary_bits compress = L(v_compress);
    void (*compress_index)(int32_t *, int32_t, uint64_t) = L(v_compress_index);
    (void)compress, (void)compress_index;
#endif
#if ISA_MASKED_STORE
    void (*store_row)(int8_t *, vmask, int) = L(v_store_row);
    (void)store_row;
#endif
}
