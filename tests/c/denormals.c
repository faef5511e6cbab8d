/*
 * denormals.c - the kernels with denormal inputs flushed to zero by the
 * floating-point unit (where the driver knows how to ask for it).
 */
#include <inttypes.h>
#include <string.h>

#include "driver.h"

/* Flushing denormal inputs to zero for float compares (fp_flush) and
   restoring the previous state (fp_restore), where the driver knows how. */
#if defined(__x86_64__) || defined(_M_X64)
#include <xmmintrin.h>
#define HAVE_FLUSH 1
typedef unsigned fp_state;
static fp_state fp_flush(void)
{
    const unsigned csr = _mm_getcsr();
    _mm_setcsr(csr | 0x8040); /* MXCSR DAZ and FTZ */
    return csr;
}
static void fp_restore(fp_state csr) { _mm_setcsr(csr); }
#elif defined(__aarch64__) && defined(__GNUC__)
#define HAVE_FLUSH 1
typedef uint64_t fp_state;
static fp_state fp_flush(void)
{
    uint64_t fpcr, fz = UINT64_C(1) << 24; /* FPCR.FZ */
    __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
    __asm__ volatile("msr fpcr, %0" : : "r"(fpcr | fz));
    return fpcr;
}
static void fp_restore(fp_state fpcr) { __asm__ volatile("msr fpcr, %0" : : "r"(fpcr)); }
#endif

#ifdef HAVE_FLUSH
/* With denormals flushed to zero (MXCSR.DAZ, FPCR.FZ: as some libraries leave
   them), a float compare would read denormals as 0: the kernels must still
   tell the smallest denormal from zero. Rows long enough for the blocked scans; the expected
   index is known by construction, since a reference reading floats would be
   flushed as well. */
void test_denormals_under_daz(void)
{
    enum { N = 2000, AT = 1337 };
    static float f32[N];
    static double f64[N];
    const fp_state saved = fp_flush();
    for (int sign = 1; sign >= -1; sign -= 2) {
        for (int i = 0; i < N; i++) {
            f32[i] = 0.0f;
            f64[i] = 0.0;
        }
        const uint32_t d32 = sign > 0 ? 1u : 0x80000001u; /* +-smallest denormal */
        const uint64_t d64 = sign > 0 ? 1u : UINT64_C(0x8000000000000001);
        memcpy(&f32[AT], &d32, sizeof d32);
        memcpy(&f64[AT], &d64, sizeof d64);
        const int64_t shape[1] = {N};
        int64_t got;
        argext_tensor out = {&got, ARGEXT_INT64, 0, NULL, NULL};
        argext_tensor in32 = {f32, ARGEXT_FLOAT32, 1, shape, NULL};
        argext_tensor in64 = {f64, ARGEXT_FLOAT64, 1, shape, NULL};
        const argext_tensor *ins[2] = {&in32, &in64};
        for (int t = 0; t < 2; t++) {
            snprintf(where, sizeof where, "DAZ %s denormal, dtype %s, isa %s", sign > 0 ? "+" : "-",
                     t ? "float64" : "float32", argext_isa_name(argext_get_isa()));
            argext_status st = sign > 0 ? argext_argmax(ins[t], &out, 0, 0, 0)
                                        : argext_argmin(ins[t], &out, 0, 0, 0);
            CHECK(st == ARGEXT_OK && got == AT, "status %d, index %" PRId64 ", expected %d", st, got, AT);
        }
    }
    fp_restore(saved);
}
#else
void test_denormals_under_daz(void) {}
#endif
