/*
 * dispatch.c - which kernel table runs.
 *
 * The level is chosen once, on first use: the best one this CPU and build
 * run (the highest rank of isa_list.h), or the one named by the environment
 * variable ARGEXT_ISA (a name of isa_list.h) when it is supported here; an
 * unknown or unsupported value is ignored. argext_set_isa changes it later.
 * With the level, the CPU's choices of how the row scans prefetch and how
 * dense short rows go and how tall column folds' tiles are
 * (ARGEXT_ROW_PREFETCH, ARGEXT_DENSE_ROWS, ARGEXT_FOLD_TILES, else the
 * CPU's own).
 * The choice is a single int read and written atomically (relaxed: it
 * guards no other data); every racing first use computes it identically,
 * and a program that calls argext_set_isa while other threads run kernels
 * may see either level in those calls (each call reads the level once).
 */
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu_features.h"
#include "kernels/isa_tables.h"
#include "kernels/kernels.h"
#include "kernels/platform.h"

#define ISA_COUNTED(ENUM, NAME, RANK, ARCH, TARGET, MSVC) +1
typedef char isa_list_matches_argext_h[(0 ARGEXT_ISAS(ISA_COUNTED)) == ARGEXT_ISA_COUNT ? 1 : -1];
#undef ISA_COUNTED

static const struct {
    const char *name;
    int rank;
    const argext_kernel_table *table; /* 0: not built (platform.h) */
} isas[ARGEXT_ISA_COUNT] = {
#define ISA_ENTRY(ENUM, NAME, RANK, ARCH, TARGET, MSVC) \
    [ARGEXT_ISA_##ENUM] = {#NAME, RANK, ARGEXT_ON_##ARCH(ARGEXT_KEPT_##ENUM(&argext_kernels_##NAME))},
    ARGEXT_ISAS(ISA_ENTRY)
#undef ISA_ENTRY
};

/* -1 until the first use; then the level in use. */
#if defined(__GNUC__) || defined(__clang__)
static int active = -1;
static int load_active(void) { return __atomic_load_n(&active, __ATOMIC_RELAXED); }
static void store_active(int v) { __atomic_store_n(&active, v, __ATOMIC_RELAXED); }
static void store_choice(int *c, int v) { __atomic_store_n(c, v, __ATOMIC_RELAXED); }
#else /* MSVC: aligned long reads are atomic; volatile keeps each one a single access */
#include <intrin.h>
static volatile long active = -1;
static int load_active(void) { return (int)active; }
static void store_active(int v) { (void)_InterlockedExchange(&active, (long)v); }
static void store_choice(int *c, int v) { (void)_InterlockedExchange((volatile long *)c, (long)v); }
#endif

int argext_isa_supported(argext_isa isa)
{
    return (unsigned)isa < ARGEXT_ISA_COUNT && isas[isa].table != 0 && argext_cpu_has(isa);
}

argext_isa argext_isa_best(void)
{
    int best = ARGEXT_ISA_BASELINE;
    for (int i = 0; i < ARGEXT_ISA_COUNT; i++)
        if (isas[i].rank > isas[best].rank && argext_isa_supported((argext_isa)i))
            best = i;
    return (argext_isa)best;
}

int argext_row_prefetch = ARGEXT_ROW_PREFETCH_ON;
int argext_dense_rows = ARGEXT_DENSE_ROWS_STREAMED;
int argext_fold_tiles = ARGEXT_FOLD_TILES_SHORT;

/* A CPU choice: the environment variable `name` when it is one digit from 0
   to `most` (platform.h's modes, to measure them on a CPU), else the CPU's
   own (cpu_features.c). */
static int choice(const char *name, int most, int cpu)
{
    const char *env = getenv(name);
    if (env && env[0] >= '0' && env[0] <= '0' + most && env[1] == 0)
        return env[0] - '0';
    return cpu;
}

static void store_choices(void)
{
    store_choice(&argext_row_prefetch, choice("ARGEXT_ROW_PREFETCH", 3, argext_cpu_row_prefetch()));
    store_choice(&argext_dense_rows, choice("ARGEXT_DENSE_ROWS", 1, argext_cpu_dense_rows()));
    store_choice(&argext_fold_tiles, choice("ARGEXT_FOLD_TILES", 1, argext_cpu_fold_tiles()));
}

static argext_isa chosen(void)
{
    int isa = load_active();
    if (isa >= 0)
        return (argext_isa)isa;
    store_choices();
    isa = argext_isa_best();
    const char *env = getenv("ARGEXT_ISA");
    for (int i = 0; env && i < ARGEXT_ISA_COUNT; i++)
        if (strcmp(env, isas[i].name) == 0 && argext_isa_supported((argext_isa)i))
            isa = i;
    store_active(isa);
    return (argext_isa)isa;
}

argext_isa argext_get_isa(void) { return chosen(); }

argext_status argext_set_isa(argext_isa isa)
{
    if (!argext_isa_supported(isa))
        return ARGEXT_ERR_ISA;
    store_choices();
    store_active(isa);
    return ARGEXT_OK;
}

const char *argext_isa_name(argext_isa isa)
{
    return (unsigned)isa < ARGEXT_ISA_COUNT ? isas[isa].name : "unknown";
}

int argext_isa_rank(argext_isa isa) { return (unsigned)isa < ARGEXT_ISA_COUNT ? isas[isa].rank : -1; }

const argext_kernel_table *argext_active_kernels(void) { return isas[chosen()].table; }
