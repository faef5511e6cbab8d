/*
 * check.c - the driver's counters, failure messages and random numbers.
 */
#include <stdarg.h>

#include "driver.h"

long n_pass, n_fail;
char where[512];
uint64_t rng_state;

void check_that(int ok, int line, const char *format, ...)
{
    if (ok) {
        n_pass++;
        return;
    }
    if (++n_fail > 40)
        return;
    va_list args;
    va_start(args, format);
    fprintf(stderr, "FAIL line %d [%s]: ", line, where);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
}

void expect_status(const char *what, argext_status got, argext_status want)
{
    snprintf(where, sizeof where, "bad descriptor: %s", what);
    CHECK(got == want, "status %d (%s), expected %d (%s)", got, argext_status_string(got), want,
          argext_status_string(want));
}

uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

int64_t rnd_in(int64_t lo, int64_t hi) { return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1)); }
