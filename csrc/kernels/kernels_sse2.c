/*
 * kernels_sse2.c - the SIMD template (kernels_simd.h) on 128-bit SSE2
 * vectors (simd_sse.h): the x86-64 floor, which every x86-64 CPU runs.
 */
#include "kernels/kernels.h"

#ifdef ARGEXT_X86_64
#include <emmintrin.h>
#include <string.h>

#include "kernels/dtypes.h"

#define SSE42 0
#include "kernels/simd_sse.h"

#define ISA_TABLE argext_kernels_sse2
#include "kernels/kernels_simd.h"

#endif /* ARGEXT_X86_64 */
