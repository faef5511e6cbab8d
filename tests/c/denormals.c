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
/* TopK's float blocks under DAZ: a row long enough for the primed scan,
   -2.0 but for D smallest denormals, Z zeros and a -1.0 spread over it, k =
   D + Z + 1: the k-th best is -1.0, a normal threshold, and every denormal,
   read as zero by a float compare, must still rank above the zeros. The
   expected indices are known by construction (a float reference would be
   flushed too). */
static void test_topk_under_daz(void)
{
    enum { N = 20000, D = 7, Z = 5, K = D + Z + 1 };
    static float x[N];
    static double y[N];
    int64_t want[K], idx[K];
    float v32[K];
    double v64[K];
    for (int sign = 1; sign >= -1; sign -= 2) { /* largest, then smallest with signs flipped */
        for (int i = 0; i < N; i++)
            x[i] = -2.0f * (float)sign, y[i] = -2.0 * sign;
        const uint32_t d32 = sign > 0 ? 1u : 0x80000001u;
        const uint64_t d64 = sign > 0 ? 1u : UINT64_C(0x8000000000000001);
        for (int j = 0; j < D; j++) { /* ranked first: in index order */
            want[j] = 1 + j * (N / D);
            memcpy(&x[want[j]], &d32, sizeof d32);
            memcpy(&y[want[j]], &d64, sizeof d64);
        }
        for (int j = 0; j < Z; j++) { /* then the zeros, each of the sign that ranks lower */
            want[D + j] = 2 + j * (N / Z);
            x[want[D + j]] = sign > 0 ? -0.0f : 0.0f;
            y[want[D + j]] = sign > 0 ? -0.0 : 0.0;
        }
        want[K - 1] = N - 3;
        x[N - 3] = -1.0f * (float)sign, y[N - 3] = -1.0 * sign;
        const int64_t shape[1] = {N}, oshape[1] = {K};
        argext_tensor in32 = {x, ARGEXT_FLOAT32, 1, shape, NULL}, in64 = {y, ARGEXT_FLOAT64, 1, shape, NULL};
        argext_tensor o32 = {v32, ARGEXT_FLOAT32, 1, oshape, NULL}, o64 = {v64, ARGEXT_FLOAT64, 1, oshape, NULL};
        argext_tensor oi = {idx, ARGEXT_INT64, 1, oshape, NULL};
        for (int t = 0; t < 2; t++) {
            snprintf(where, sizeof where, "DAZ topk %s, dtype %s, isa %s", sign > 0 ? "largest" : "smallest",
                     t ? "float64" : "float32", argext_isa_name(argext_get_isa()));
            argext_status st = argext_topk(t ? &in64 : &in32, t ? &o64 : &o32, &oi, 0, K, sign > 0, 1);
            int same = st == ARGEXT_OK;
            for (int j = 0; j < K && same; j++)
                same = idx[j] == want[j];
            CHECK(same, "status %d, index %" PRId64 " first, expected %" PRId64, st, idx[0], want[0]);
        }
    }
}

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
    test_topk_under_daz();
}
#else
void test_denormals_under_daz(void) {}
#endif
