/*
 * dispatch.c - which kernel table runs. Levels without kernels in this build
 * report unsupported.
 */
#include "kernels.h"

static const argext_kernel_table *const tables[ARGEXT_ISA_COUNT] = {
    [ARGEXT_ISA_BASELINE] = &argext_kernels_baseline,
};

static const char *const isa_names[ARGEXT_ISA_COUNT] = {
    [ARGEXT_ISA_BASELINE] = "baseline",
    [ARGEXT_ISA_AVX2] = "avx2",
    [ARGEXT_ISA_AVX512] = "avx512",
};

static argext_isa active = ARGEXT_ISA_BASELINE;

int argext_isa_supported(argext_isa isa)
{
    return (unsigned)isa < ARGEXT_ISA_COUNT && tables[isa] != 0;
}

argext_isa argext_isa_best(void)
{
    int isa = ARGEXT_ISA_COUNT - 1;
    while (!argext_isa_supported((argext_isa)isa))
        isa--;
    return (argext_isa)isa;
}

argext_isa argext_get_isa(void) { return active; }

argext_status argext_set_isa(argext_isa isa)
{
    if (!argext_isa_supported(isa))
        return ARGEXT_ERR_ISA;
    active = isa;
    return ARGEXT_OK;
}

const char *argext_isa_name(argext_isa isa)
{
    return (unsigned)isa < ARGEXT_ISA_COUNT ? isa_names[isa] : "unknown";
}

const argext_kernel_table *argext_active_kernels(void) { return tables[active]; }
