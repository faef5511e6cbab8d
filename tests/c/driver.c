/*
 * driver.c - C test and fuzz driver for the argext core (no Python), built
 * on the public header only, as a C user builds.
 *
 * Every entry point runs on random shapes, strides (negative, zero,
 * permuted, padded, unaligned) and all twelve dtypes, under every ISA level
 * this CPU supports, and is checked against a scalar reference (reference.c:
 * plain loops over decoded double / int64 / uint64 values, sharing nothing
 * with the kernels). A table of bad descriptors must be refused with the
 * right status (bad_descriptors.c), and a seeded fuzz loop of random (often
 * invalid) requests must succeed exactly when the request is valid
 * (entry_points.c). Every call checks that nothing outside the output's
 * elements is written, that the input is not modified, and that a refused
 * call writes nothing at all (run_request.c). The same checks run again
 * split over threads (threads.c).
 *
 * Built by .ci/sanitize under ASan+UBSan, ThreadSanitizer and valgrind, and
 * by .ci/cross for other targets.
 * Usage: [ARGEXT_ISA=level] driver [fuzz_iterations [seed [threads]]] (threads 0 skips
 * the threaded checks, 2 runs them alone: ThreadSanitizer's run); prints "driver: N
 * passed, M failed". With ARGEXT_ISA, that level only.
 */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200112L /* setenv */
#endif

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"

/* Every call split into parts of a few bytes: read by the library once, on
   the first call that could split. */
static void split_every_call(void)
{
#ifdef _WIN32
    _putenv("ARGEXT_MIN_PART_BYTES=16");
#else
    setenv("ARGEXT_MIN_PART_BYTES", "16", 1);
#endif
}

/* Every check at one ISA level, on the calling thread alone. */
static void test_level(argext_isa isa, long iterations)
{
    printf("driver: level %s\n", argext_isa_name(isa));
    snprintf(where, sizeof where, "set_isa(%d)", (int)isa);
    CHECK(argext_set_isa(isa) == ARGEXT_OK && argext_get_isa() == isa, "cannot select ISA %d",
          (int)isa);
    test_entry_points(iterations >= 5000 ? 12 : 3, 0);
    test_denormals_under_daz();
    fuzz(iterations);
}

/* Whether argext_hardmax applies ONNX's type constraint: an int8 request. */
static int probe_hardmax_float_only(void)
{
    int8_t probe = 0, probe_out = 0;
    const int64_t probe_shape[1] = {1};
    argext_tensor pin = {&probe, ARGEXT_INT8, 1, probe_shape, NULL};
    argext_tensor pout = {&probe_out, ARGEXT_INT8, 1, probe_shape, NULL};
    return argext_hardmax(&pin, &pout, 0, 13) == ARGEXT_ERR_DTYPE;
}

int main(int argc, char **argv)
{
    long iterations = argc > 1 ? atol(argv[1]) : 20000;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 20261120;
    int threaded = argc > 3 ? atoi(argv[3]) : 1;
    rng_state = seed;
    if (threaded)
        split_every_call();
    hardmax_float_only = probe_hardmax_float_only();
    printf("driver: argext_hardmax takes %s\n", hardmax_float_only ? "float dtypes only" : "every dtype");
    test_bad_descriptors();
    /* ARGEXT_ISA (read by the library on first use) names the one level to
       test; it must be the level in use. Without it, every supported level. */
    const char *only = getenv("ARGEXT_ISA");
    if (only) {
        snprintf(where, sizeof where, "ARGEXT_ISA=%s", only);
        CHECK(strcmp(argext_isa_name(argext_get_isa()), only) == 0, "level in use: %s",
              argext_isa_name(argext_get_isa()));
    }
    CHECK(argext_set_num_threads(1) == ARGEXT_OK, "set_num_threads(1)");
    for (int isa = 0; isa < ARGEXT_ISA_COUNT && threaded != 2; isa++)
        if (argext_isa_supported((argext_isa)isa) &&
            (!only || strcmp(argext_isa_name((argext_isa)isa), only) == 0))
            test_level((argext_isa)isa, iterations);
    if (threaded)
        test_threads(1); /* at the best ISA: the split does not depend on it */
    printf("driver: %ld passed, %ld failed (seed %" PRIu64 ", %ld fuzz iterations per ISA)\n", n_pass,
           n_fail, seed, iterations);
    return n_fail != 0;
}
