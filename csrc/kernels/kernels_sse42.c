/*
 * kernels_sse42.c - the SIMD template (kernels_simd.h) on 128-bit vectors
 * with SSE4.1 and SSE4.2 (simd_sse.h), compiled for them by its target
 * pragma; dispatch.c runs it only where cpuid reports both.
 */
#include "kernels/kernels.h"

#ifdef ARGEXT_X86_64
#include <nmmintrin.h>
#include <string.h>

#include "kernels/dtypes.h"

ISA_TARGET_BEGIN("sse4.1,sse4.2")

#define SSE42 1
#include "kernels/simd_sse.h"

#define ISA_TABLE argext_kernels_sse42
#include "kernels/kernels_simd.h"

ISA_TARGET_END

#endif /* ARGEXT_X86_64 */
