/*
 * cpu_features.c - which SIMD levels this CPU and its OS run: cpuid for the
 * instructions, xgetbv for the OS saving the vector registers (YMM for AVX2;
 * YMM, ZMM and mask registers for AVX-512). SSE2 is part of x86-64 and NEON
 * (Advanced SIMD) part of AArch64; other architectures run the baseline only.
 */
#include "kernels/cpu_features.h"
#include "kernels/platform.h"

#ifdef ARGEXT_X86_64
#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
static void cpuid(int leaf, int sub, unsigned r[4])
{
    int x[4];
    __cpuidex(x, leaf, sub);
    for (int i = 0; i < 4; i++)
        r[i] = (unsigned)x[i];
}
static uint64_t xcr0(void) { return _xgetbv(0); }
#else
#include <cpuid.h>
static void cpuid(int leaf, int sub, unsigned r[4])
{
    r[0] = r[1] = r[2] = r[3] = 0;
    __cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
}
static uint64_t xcr0(void)
{
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}
#endif

#ifdef __APPLE__
#include <sys/sysctl.h>
/* macOS enables the ZMM state lazily, on a process's first AVX-512
   instruction, so XCR0 does not show it beforehand; the kernel reports the
   extensions it will enable through sysctl instead. */
static int darwin_has(const char *name)
{
    int v = 0;
    size_t n = sizeof v;
    return sysctlbyname(name, &v, &n, NULL, 0) == 0 && v != 0;
}
static int os_avx512(uint64_t xcr)
{
    return (xcr & 0xe6) == 0xe6 ||
           ((xcr & 0x6) == 0x6 && darwin_has("hw.optional.avx512f") &&
            darwin_has("hw.optional.avx512bw") && darwin_has("hw.optional.avx512vl") &&
            darwin_has("hw.optional.avx512dq"));
}
#else
/* XMM|YMM|opmask|ZMM_Hi256|Hi16_ZMM state enabled. */
static int os_avx512(uint64_t xcr) { return (xcr & 0xe6) == 0xe6; }
#endif

int argext_cpu_has(argext_isa isa)
{
    unsigned r[4];
    if (isa == ARGEXT_ISA_BASELINE || isa == ARGEXT_ISA_SSE2)
        return 1;
    cpuid(0, 0, r);
    unsigned max_leaf = r[0];
    if (max_leaf < 1)
        return 0;
    cpuid(1, 0, r);
    const unsigned sse41 = 1u << 19, sse42 = 1u << 20;
    if (isa == ARGEXT_ISA_SSE42)
        return (r[2] & (sse41 | sse42)) == (sse41 | sse42);
    const unsigned osxsave = 1u << 27, avx = 1u << 28;
    if (max_leaf < 7 || (r[2] & (osxsave | avx)) != (osxsave | avx))
        return 0;
    uint64_t xcr = xcr0();
    cpuid(7, 0, r);
    unsigned ebx = r[1];
    if (isa == ARGEXT_ISA_AVX2)
        return (xcr & 0x6) == 0x6 && (ebx & (1u << 5)); /* XMM|YMM state; AVX2 */
    if (isa == ARGEXT_ISA_AVX512) {
        /* F (16), DQ (17), BW (30), VL (31) */
        const unsigned need = (1u << 16) | (1u << 17) | (1u << 30) | (1u << 31);
        return os_avx512(xcr) && (ebx & need) == need && (ebx & (1u << 5));
    }
    return 0;
}

/* Whether cpuid names the vendor: ebx, edx, ecx spell it ("Genu" "ineI" "ntel"). */
static int vendor_is(const unsigned r[4], unsigned b, unsigned d, unsigned c)
{
    return r[1] == b && r[3] == d && r[2] == c;
}
#define VENDOR_AMD 0x68747541u, 0x69746e65u, 0x444d4163u   /* AuthenticAMD */
#define VENDOR_INTEL 0x756e6547u, 0x49656e69u, 0x6c65746eu /* GenuineIntel */

/* AMD family 19h (Zen 3, Zen 4) streams rows faster on its hardware
   prefetchers alone: on Zen 4 from DRAM, one thread, float32 rows of 1000
   to 4096 and 1-D at every level 1.03-1.35x without the row scans' own
   requests, in L2 1.04-1.14x. Zen 3 alike in L2, but its calls past 4 MiB
   ran up to 1.5x with, and from DRAM its rows of up to 2 KiB 1.1-1.6x
   (ARGEXT_ROW_PREFETCH_BY_SIZE: template.h's scan_ahead, rows_mid.h's
   mid_prefetch). On Zen 4 the dense short rows skip their asks too
   (template.h's prefetch_dense_rows). Elsewhere they measured faster (Intel Xeon at the SSE
   levels; Zen 5 at 8 KiB ahead against 2 KiB). Intel asks while the data
   may lie in its cache (ARGEXT_ROW_PREFETCH_IN_CACHE): on a Xeon (KVM
   guest, family 6 model 167, 480 MiB L3) a single row of 1 GiB from DRAM,
   one thread, read faster without asks, avx512 / avx2 / sse4.2 float32
   1.27x / 1.80x / 1.46x, float64 (512 MiB) 1.28x / 1.83x / 1.50x, at
   128 MiB float32 1.17x / 1.26x / 1.50x, avx512 two threads 1.19x, int8
   0.99x / 1.08x / 1.17x; in its L3 (64 MiB) the asks are worth up to 2x,
   and many rows from DRAM measured mixed without them (BENCHMARKS.md), so
   they keep them. */
int argext_cpu_row_prefetch(void)
{
    unsigned r[4];
    cpuid(0, 0, r);
    if (vendor_is(r, VENDOR_INTEL))
        return ARGEXT_ROW_PREFETCH_IN_CACHE;
    if (!vendor_is(r, VENDOR_AMD) || r[0] < 1)
        return ARGEXT_ROW_PREFETCH_ON;
    cpuid(1, 0, r);
    unsigned family = (r[0] >> 8) & 0xf, model = (r[0] >> 4) & 0xf;
    if (family == 0xf) {
        family += (r[0] >> 20) & 0xff;
        model |= (r[0] >> 12) & 0xf0;
    }
    if (family != 0x19)
        return ARGEXT_ROW_PREFETCH_ON;
    const int zen3 = model < 0x10 || (model >= 0x20 && model < 0x60); /* Zen 4: 10h-1Fh, 60h-7Fh, A0h-AFh */
    return zen3 ? ARGEXT_ROW_PREFETCH_BY_SIZE : ARGEXT_ROW_PREFETCH_OFF;
}

/* Intel Xeon (a KVM guest, family 6 model 167, AVX-512, L2 2 MiB a core)
   writes the indices of dense rows of a line or more faster by plain
   stores, and reads its avx512 rows of exactly a vector faster one at a
   time than as squares of sixteen: one thread, 1 GiB from DRAM, both
   against streamed squares, float32 rows of 16 1.39x (plain stores alone
   1.22x), float64 / int64 rows of 8 1.14x / 1.15x; plain stores alone,
   float64 rows of 16 1.26x, float32 rows of 32 / 64 1.16x / 1.05x, int32
   rows of 16 1.14x, int16 rows of 32 1.10x, int8 rows of 64 1.08x; in
   its L3 (64 MiB) 0.98-1.06x. Shorter rows keep streaming (plainly:
   float32 rows of 2 / 4 from DRAM 0.81x / 0.86x, rows of 4 / 8 in L3
   0.64x / 0.83x). AMD keeps both: on Zen 5 the streamed lines came with
   the asks that took float32 rows of 16 from 59% to 86% of the read
   probe, and its squares were measured at avx2 only. */
int argext_cpu_dense_rows(void)
{
    unsigned r[4];
    cpuid(0, 0, r);
    return vendor_is(r, VENDOR_INTEL) ? ARGEXT_DENSE_ROWS_LINES_PLAIN : ARGEXT_DENSE_ROWS_STREAMED;
}

/* Intel Xeon (as above) folds 17 to 24 rows faster in one tile than in
   pairs: one thread, against pairs, float32 (48, 21, 512, 512) over axis 1
   from DRAM avx512 / avx2 1.21x / 1.33x, in its L3 (4, 21, 512, 512)
   1.29x / 1.42x, (1, 24, 65536) 1.21x / 1.22x; int8, int16, int64,
   float64 from DRAM 1.15-1.37x. 16-bit floats at 64-byte vectors stay in
   pairs (their keys cost more than the tile saves: float16 and bfloat16
   (4, 21, 512, 512) in L3 0.90x); 32 rows lost in L3 (float32 (2, 32,
   131072) 0.92-0.94x). AMD keeps TILE_ROWS (Zen 3, avx2: 32 rows from
   DRAM 0.56-0.89x; 17-24 unmeasured). */
int argext_cpu_fold_tiles(void)
{
    unsigned r[4];
    cpuid(0, 0, r);
    return vendor_is(r, VENDOR_INTEL) ? ARGEXT_FOLD_TILES_TALL : ARGEXT_FOLD_TILES_SHORT;
}

#elif defined(ARGEXT_AARCH64)

int argext_cpu_has(argext_isa isa) { return isa == ARGEXT_ISA_BASELINE || isa == ARGEXT_ISA_NEON; }
int argext_cpu_row_prefetch(void) { return ARGEXT_ROW_PREFETCH_ON; }
int argext_cpu_dense_rows(void) { return ARGEXT_DENSE_ROWS_STREAMED; }
int argext_cpu_fold_tiles(void) { return ARGEXT_FOLD_TILES_SHORT; }

#else

int argext_cpu_has(argext_isa isa) { return isa == ARGEXT_ISA_BASELINE; }
int argext_cpu_row_prefetch(void) { return ARGEXT_ROW_PREFETCH_ON; }
int argext_cpu_dense_rows(void) { return ARGEXT_DENSE_ROWS_STREAMED; }
int argext_cpu_fold_tiles(void) { return ARGEXT_FOLD_TILES_SHORT; }

#endif
