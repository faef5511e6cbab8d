/*
 * dispatch.c - which kernel table runs.
 *
 * The level is chosen once, on first use: the best one this CPU and build
 * run, or the one named by the environment variable ARGEXT_ISA
 * ("baseline", "sse2", "sse42", "avx2", "avx512", "neon") when it is
 * supported here; an unknown or unsupported value is ignored.
 * argext_set_isa changes it later. The choice is a single int read and
 * written atomically (relaxed: it guards no other data); every racing first
 * use computes it identically, and a program that calls argext_set_isa while
 * other threads run kernels may see either level in those calls (each call
 * reads the level once).
 */
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu_features.h"
#include "kernels/kernels.h"

static const argext_kernel_table *const tables[ARGEXT_ISA_COUNT] = {
    [ARGEXT_ISA_BASELINE] = &argext_kernels_baseline,
#ifdef ARGEXT_X86_64
    [ARGEXT_ISA_SSE2] = &argext_kernels_sse2,
    [ARGEXT_ISA_SSE42] = &argext_kernels_sse42,
    [ARGEXT_ISA_AVX2] = &argext_kernels_avx2,
    [ARGEXT_ISA_AVX512] = &argext_kernels_avx512,
#endif
#ifdef ARGEXT_AARCH64
    [ARGEXT_ISA_NEON] = &argext_kernels_neon,
#endif
};

static const char *const isa_names[ARGEXT_ISA_COUNT] = {
    [ARGEXT_ISA_BASELINE] = "baseline",
    [ARGEXT_ISA_SSE2] = "sse2",
    [ARGEXT_ISA_SSE42] = "sse42",
    [ARGEXT_ISA_AVX2] = "avx2",
    [ARGEXT_ISA_AVX512] = "avx512",
    [ARGEXT_ISA_NEON] = "neon",
};

/* The levels, lowest first (the enum's values are in order of addition). */
static const argext_isa ranked[ARGEXT_ISA_COUNT] = {
    ARGEXT_ISA_BASELINE, ARGEXT_ISA_SSE2, ARGEXT_ISA_SSE42,
    ARGEXT_ISA_NEON,     ARGEXT_ISA_AVX2, ARGEXT_ISA_AVX512,
};

/* -1 until the first use; then the level in use. */
#if defined(__GNUC__) || defined(__clang__)
static int active = -1;
#define LOAD_ACTIVE() __atomic_load_n(&active, __ATOMIC_RELAXED)
#define STORE_ACTIVE(v) __atomic_store_n(&active, (v), __ATOMIC_RELAXED)
#else /* MSVC: aligned long reads are atomic; volatile keeps each one a single access */
#include <intrin.h>
static volatile long active = -1;
#define LOAD_ACTIVE() ((int)active)
#define STORE_ACTIVE(v) ((void)_InterlockedExchange(&active, (long)(v)))
#endif

int argext_isa_supported(argext_isa isa)
{
    return (unsigned)isa < ARGEXT_ISA_COUNT && tables[isa] != 0 && argext_cpu_has(isa);
}

argext_isa argext_isa_best(void)
{
    int r = ARGEXT_ISA_COUNT - 1;
    while (!argext_isa_supported(ranked[r]))
        r--;
    return ranked[r];
}

static argext_isa chosen(void)
{
    int isa = LOAD_ACTIVE();
    if (isa >= 0)
        return (argext_isa)isa;
    isa = argext_isa_best();
    const char *env = getenv("ARGEXT_ISA");
    for (int i = 0; env && i < ARGEXT_ISA_COUNT; i++)
        if (strcmp(env, isa_names[i]) == 0 && argext_isa_supported((argext_isa)i))
            isa = i;
    STORE_ACTIVE(isa);
    return (argext_isa)isa;
}

argext_isa argext_get_isa(void) { return chosen(); }

argext_status argext_set_isa(argext_isa isa)
{
    if (!argext_isa_supported(isa))
        return ARGEXT_ERR_ISA;
    STORE_ACTIVE(isa);
    return ARGEXT_OK;
}

const char *argext_isa_name(argext_isa isa)
{
    return (unsigned)isa < ARGEXT_ISA_COUNT ? isa_names[isa] : "unknown";
}

const argext_kernel_table *argext_active_kernels(void) { return tables[chosen()]; }
