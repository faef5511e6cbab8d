/*
 * status.c - what the library says about itself and about a call's outcome:
 * its version, the status strings, and the calling thread's last error.
 */
#include "api/status.h"

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__STDC_NO_THREADS__)
#define THREAD_LOCAL _Thread_local
#elif defined(_MSC_VER)
#define THREAD_LOCAL __declspec(thread)
#elif defined(__GNUC__) || defined(__clang__)
#define THREAD_LOCAL __thread
#else
#define THREAD_LOCAL /* no thread-local storage known: one detail for all threads */
#endif

static THREAD_LOCAL argext_error last_error;

argext_error argext_last_error(void) { return last_error; }

argext_status argext_refuse(argext_status st, argext_arg arg, int index, int64_t value)
{
    last_error = (argext_error){st, arg, index, value};
    return st;
}

argext_status argext_succeed(void)
{
    last_error = (argext_error){ARGEXT_OK, ARGEXT_ARG_NONE, -1, 0};
    return ARGEXT_OK;
}

const char *argext_version(void) { return ARGEXT_VERSION_STRING; }

const char *argext_status_string(argext_status status)
{
    switch (status) {
    case ARGEXT_OK: return "success";
    case ARGEXT_ERR_NULL: return "a required pointer is NULL";
    case ARGEXT_ERR_DTYPE: return "unsupported dtype";
    case ARGEXT_ERR_RANK: return "rank out of range";
    case ARGEXT_ERR_SHAPE: return "invalid shape or strides (negative dimension or size overflow)";
    case ARGEXT_ERR_AXIS: return "axis out of range or repeated";
    case ARGEXT_ERR_EMPTY_AXIS: return "reduction over an empty axis";
    case ARGEXT_ERR_OUTPUT: return "output tensor has the wrong shape or dtype";
    case ARGEXT_ERR_ATTRIBUTE: return "attribute out of range";
    case ARGEXT_ERR_OVERFLOW: return "index does not fit the output dtype";
    case ARGEXT_ERR_NOMEM: return "out of memory";
    case ARGEXT_ERR_ISA: return "instruction set not supported";
    case ARGEXT_ERR_ALL_NAN: return "All-NaN slice encountered";
    }
    return "unknown status";
}
