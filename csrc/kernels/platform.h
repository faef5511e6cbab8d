/*
 * platform.h - what the kernels need of the compiler and the target
 * architecture: which SIMD files apply, forced inlining, bit scans, a
 * prefetch hint and the floating-point control state.
 */
#ifndef ARGEXT_PLATFORM_H
#define ARGEXT_PLATFORM_H

#include <stdint.h>

/* The target, not the host: these follow the compiler's own target macros,
   so cross compiles and one-pass multi-architecture compiles (macOS
   universal2) pick the right files. MSVC's ARM64EC also defines _M_X64 but
   runs ARM code: it gets the baseline only. ARGEXT_BASELINE_ONLY (CMake's
   ARGEXT_SIMD=OFF) builds the portable kernels alone, as for an architecture
   without SIMD files: a quicker build of slower kernels. */
#if defined(ARGEXT_BASELINE_ONLY)
#elif (defined(__x86_64__) || defined(_M_X64) || defined(__amd64__)) && !defined(_M_ARM64EC)
#define ARGEXT_X86_64 1
#elif defined(__aarch64__) || defined(_M_ARM64)
#define ARGEXT_AARCH64 1
#endif

/* ARGEXT_ON_<arch>(x): x where the build targets that architecture (the
   arch column of isa_list.h), else 0. */
#define ARGEXT_ON_ANY(x) x
#ifdef ARGEXT_X86_64
#define ARGEXT_ON_X86_64(x) x
#else
#define ARGEXT_ON_X86_64(x) 0
#endif
#ifdef ARGEXT_AARCH64
#define ARGEXT_ON_AARCH64(x) x
#else
#define ARGEXT_ON_AARCH64(x) 0
#endif

/* ARGEXT_KEPT_<ENUM>(x): x unless -DARGEXT_NO_<ENUM> leaves that level of
   isa_list.h out of the build (its file compiles to nothing, dispatch never
   picks it): a quicker build without levels a test or a deployment does not
   need (CI's sanitizer and MinGW builds keep the baseline and this CPU's
   best). A level is built where ARGEXT_ON_<arch>(ARGEXT_KEPT_<ENUM>(1)). */
#define ARGEXT_KEPT_BASELINE(x) x
#ifdef ARGEXT_NO_SSE2
#define ARGEXT_KEPT_SSE2(x) 0
#else
#define ARGEXT_KEPT_SSE2(x) x
#endif
#ifdef ARGEXT_NO_SSE42
#define ARGEXT_KEPT_SSE42(x) 0
#else
#define ARGEXT_KEPT_SSE42(x) x
#endif
#ifdef ARGEXT_NO_AVX2
#define ARGEXT_KEPT_AVX2(x) 0
#else
#define ARGEXT_KEPT_AVX2(x) x
#endif
#ifdef ARGEXT_NO_AVX512
#define ARGEXT_KEPT_AVX512(x) 0
#else
#define ARGEXT_KEPT_AVX512(x) x
#endif
#ifdef ARGEXT_NO_NEON
#define ARGEXT_KEPT_NEON(x) 0
#else
#define ARGEXT_KEPT_NEON(x) x
#endif

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#endif

/* The SIMD template's helpers and primitives: always inlined into the
   kernel instances, so a profile shows (op, shape, dtype, ISA). NOINLINE:
   an instance's rarer path kept out of its caller's loops. */
#if defined(_MSC_VER) && !defined(__clang__)
#define VINLINE static __forceinline
#define NOINLINE static __declspec(noinline)
#else
#define VINLINE static inline __attribute__((always_inline))
#define NOINLINE static __attribute__((noinline))
#endif

/* Before a loop of a few constant trips over an array of vectors: unrolled
   whole, so that each element is a register. */
#if defined(__GNUC__) || defined(__clang__)
#define ARGEXT_UNROLL _Pragma("GCC unroll 16")
#else
#define ARGEXT_UNROLL
#endif

/* Index of the lowest (ctz64) and highest (msb64) set bit of x != 0. */
#if defined(_MSC_VER) && !defined(__clang__)
VINLINE int ctz64(uint64_t x)
{
    unsigned long i;
    _BitScanForward64(&i, x);
    return (int)i;
}
VINLINE int msb64(uint64_t x)
{
    unsigned long i;
    _BitScanReverse64(&i, x);
    return (int)i;
}
#else
VINLINE int ctz64(uint64_t x) { return __builtin_ctzll(x); }
VINLINE int msb64(uint64_t x) { return 63 - __builtin_clzll(x); }
#endif

/* Set bits of x: the bit-parallel sum (MSVC has no portable intrinsic
   without the POPCNT instruction). */
#if defined(_MSC_VER) && !defined(__clang__)
VINLINE int popcount64(uint64_t x)
{
    x -= (x >> 1) & UINT64_C(0x5555555555555555);
    x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
    return (int)((x * UINT64_C(0x0101010101010101)) >> 56);
}
#else
VINLINE int popcount64(uint64_t x) { return __builtin_popcountll(x); }
#endif

/* A hint to fetch the cache line at p for reading (prefetcht0, prfm
   pldl1keep). p may lie past the input: callers form it as an integer. */
#if defined(_MSC_VER) && !defined(__clang__) && defined(ARGEXT_X86_64)
#include <xmmintrin.h>
VINLINE void argext_prefetch(const char *p) { _mm_prefetch(p, _MM_HINT_T0); }
#elif defined(_MSC_VER) && !defined(__clang__) && defined(ARGEXT_AARCH64)
VINLINE void argext_prefetch(const char *p) { __prefetch(p); }
#elif defined(__GNUC__) || defined(__clang__)
VINLINE void argext_prefetch(const char *p) { __builtin_prefetch(p); }
#else
VINLINE void argext_prefetch(const char *p) { (void)p; }
#endif

/* Whether the row scans ask memory for the lines ahead (template.h's
   scan_ahead): ARGEXT_ROW_PREFETCH_ON always, ARGEXT_ROW_PREFETCH_BY_SIZE
   by the call's size (and rows_mid.h's short rows in calls read from
   DRAM), ARGEXT_ROW_PREFETCH_OFF never, ARGEXT_ROW_PREFETCH_IN_CACHE as
   ON but for a single row of SCAN_CACHE_BYTES or more (past the cache:
   template.h's scan_ahead_row). cpu_features.c decides by the
   CPU, dispatch.c sets it with the level in use, before any kernel runs.
   Read per call, relaxed (a plain load): threads may set it at once, to
   the same value. */
#define ARGEXT_ROW_PREFETCH_OFF 0
#define ARGEXT_ROW_PREFETCH_ON 1
#define ARGEXT_ROW_PREFETCH_BY_SIZE 2
#define ARGEXT_ROW_PREFETCH_IN_CACHE 3
extern int argext_row_prefetch;

/* How dense short rows (rows_dense.h) suit this CPU:
   ARGEXT_DENSE_ROWS_STREAMED: a long call's indices go out by whole lines
   of non-temporal stores, and rows of exactly a vector as squares at every
   level; ARGEXT_DENSE_ROWS_LINES_PLAIN: rows of a line (64 bytes) or more
   store their indices plainly, and with 64-byte vectors rows of exactly a
   vector go one at a time (template.h's dense_streams, dense_squares). Set
   and read as argext_row_prefetch. */
#define ARGEXT_DENSE_ROWS_STREAMED 0
#define ARGEXT_DENSE_ROWS_LINES_PLAIN 1
extern int argext_dense_rows;

/* How tall a column fold's tile of rows in registers may be (cols_fold.h):
   ARGEXT_FOLD_TILES_SHORT: TILE_ROWS rows; ARGEXT_FOLD_TILES_TALL: up to
   TALL_TILE_ROWS, but for 16-bit floats at 64-byte vectors, and taller
   folds of one- and two-byte integers at 64-byte vectors four rows at a
   time. Set and read as argext_row_prefetch. */
#define ARGEXT_FOLD_TILES_SHORT 0
#define ARGEXT_FOLD_TILES_TALL 1
extern int argext_fold_tiles;

#if defined(_MSC_VER) && !defined(__clang__)
VINLINE int argext_cpu_choice(const int *c) { return *(const volatile int *)c; }
#else
VINLINE int argext_cpu_choice(const int *c) { return __atomic_load_n(c, __ATOMIC_RELAXED); }
#endif
VINLINE int argext_row_prefetch_mode(void) { return argext_cpu_choice(&argext_row_prefetch); }
VINLINE int argext_row_prefetch_on(void)
{
    const int mode = argext_row_prefetch_mode();
    return mode == ARGEXT_ROW_PREFETCH_ON || mode == ARGEXT_ROW_PREFETCH_IN_CACHE;
}
VINLINE int argext_dense_rows_mode(void) { return argext_cpu_choice(&argext_dense_rows); }
VINLINE int argext_fold_tiles_mode(void) { return argext_cpu_choice(&argext_fold_tiles); }

/* Nonzero when float compares read denormal inputs as zero (x86 MXCSR.DAZ,
   AArch64 FPCR.FZ or FPCR.FIZ), so that the SIMD kernels' float compares
   cannot order them. Slow to read: once per kernel call. */
#if defined(ARGEXT_X86_64)
#include <xmmintrin.h>
VINLINE int argext_denormals_are_zero(void) { return (_mm_getcsr() & 0x40) != 0; } /* DAZ, bit 6 */
#elif defined(ARGEXT_AARCH64)
#if defined(_MSC_VER) && !defined(__clang__)
#ifndef ARM64_SYSREG
#define ARM64_SYSREG(op0, op1, crn, crm, op2) \
    ((((op0)&1) << 14) | (((op1)&7) << 11) | (((crn)&15) << 7) | (((crm)&15) << 3) | ((op2)&7))
#endif
#ifndef ARM64_FPCR
#define ARM64_FPCR ARM64_SYSREG(3, 3, 4, 4, 0)
#endif
VINLINE uint64_t argext_fpcr(void) { return (uint64_t)_ReadStatusReg(ARM64_FPCR); }
#else
VINLINE uint64_t argext_fpcr(void)
{
    uint64_t x;
    __asm__ volatile("mrs %0, fpcr" : "=r"(x));
    return x;
}
#endif
/* FZ (bit 24); FIZ (bit 0, FEAT_AFP; zero where the CPU lacks it). */
VINLINE int argext_denormals_are_zero(void) { return (argext_fpcr() & ((UINT64_C(1) << 24) | 1)) != 0; }
#else
VINLINE int argext_denormals_are_zero(void) { return 0; }
#endif

#endif /* ARGEXT_PLATFORM_H */
