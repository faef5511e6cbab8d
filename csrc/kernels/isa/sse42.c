/*
 * sse42.c - the SIMD template on 128-bit vectors with SSE4.1 and SSE4.2
 * (sse.h's primitives), compiled for them by its target (isa_list.h);
 * dispatch.c runs it only where cpuid reports both.
 */
#include "kernels/platform.h"

#if ARGEXT_ON_X86_64(ARGEXT_KEPT_SSE42(1))
#include <nmmintrin.h>
#include <string.h>

#include "kernels/targets.h"

ISA_TARGET_BEGIN(SSE42)

#define SSE4_2 1
#include "kernels/isa/sse.h"

#define ISA SSE42
#include "kernels/simd/template.h"

ISA_TARGET_END

#endif /* ARGEXT_ON_X86_64(ARGEXT_KEPT_SSE42(1)) */
