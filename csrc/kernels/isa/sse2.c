/*
 * sse2.c - the SIMD template on 128-bit SSE2 vectors (sse.h's primitives):
 * the x86-64 floor, which every x86-64 CPU runs.
 */
#include "kernels/platform.h"

#if ARGEXT_ON_X86_64(ARGEXT_KEPT_SSE2(1))
#include <emmintrin.h>

#include "kernels/targets.h"

ISA_TARGET_BEGIN(SSE2)

#define SSE4_2 0
#include "kernels/isa/sse.h"

#define ISA SSE2
#include "kernels/simd/template.h"

ISA_TARGET_END

#endif /* ARGEXT_ON_X86_64(ARGEXT_KEPT_SSE2(1)) */
