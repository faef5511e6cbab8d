/*
 * status.h - the calling thread's last error (status.c): every entry point
 * records its outcome once, as it returns.
 */
#ifndef ARGEXT_API_STATUS_H
#define ARGEXT_API_STATUS_H

#include <stdint.h>

#include "argext.h"

/* Records a refusal's detail (argext_last_error) and returns st. */
argext_status argext_refuse(argext_status st, argext_arg arg, int index, int64_t value);

/* Records a success (no detail) and returns ARGEXT_OK. */
argext_status argext_succeed(void);

/* On a function whose large frame must not join its caller's (the caller's
   frame stays live while the engine runs: a call keeps within 16 KiB of
   stack, argext.h). */
#if defined(_MSC_VER)
#define ARGEXT_NOINLINE __declspec(noinline)
#elif defined(__GNUC__) || defined(__clang__)
#define ARGEXT_NOINLINE __attribute__((noinline))
#else
#define ARGEXT_NOINLINE
#endif

#endif /* ARGEXT_API_STATUS_H */
