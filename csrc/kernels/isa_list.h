/*
 * isa_list.h - the one list of instruction-set levels.
 *
 * A row per level: X(ENUM, name, rank, arch, target, msvc_arch)
 *   ENUM       its argext_isa value is ARGEXT_ISA_<ENUM> (argext.h: ABI)
 *   name       what ARGEXT_ISA, argext_isa_name and argext.set_isa use; the
 *              kernels' file is kernels/isa/<name>.c (baseline: kernels/baseline.c)
 *   rank       order among the levels of one architecture, lowest first:
 *              argext_isa_best takes the highest this CPU runs
 *   arch       the architecture it runs on: ANY, X86_64 or AARCH64 (platform.h)
 *   target     what its kernel file compiles for (GCC/clang target pragma,
 *              targets.h); "" for the architecture's own floor
 *   msvc_arch  the /arch flag MSVC on x64 compiles that file with ("": none)
 * Read by C (dispatch.c, cpu_features.c, the ISA files), by setup.py and
 * csrc/CMakeLists.txt (which parse the rows), and through argext_isa_rank
 * and argext_isa_name by the Python front and the benchmark.
 */
#ifndef ARGEXT_ISA_LIST_H
#define ARGEXT_ISA_LIST_H

#define ARGEXT_ISA_ROW_BASELINE(X) X(BASELINE, baseline, 0, ANY, "", "")
#define ARGEXT_ISA_ROW_SSE2(X) X(SSE2, sse2, 1, X86_64, "sse2", "")
#define ARGEXT_ISA_ROW_SSE42(X) X(SSE42, sse42, 2, X86_64, "sse4.1,sse4.2", "")
#define ARGEXT_ISA_ROW_AVX2(X) X(AVX2, avx2, 3, X86_64, "avx2", "/arch:AVX2")
#define ARGEXT_ISA_ROW_AVX512(X) \
    X(AVX512, avx512, 4, X86_64, "avx2,avx512f,avx512bw,avx512vl,avx512dq", "/arch:AVX512")
#define ARGEXT_ISA_ROW_NEON(X) X(NEON, neon, 1, AARCH64, "", "")

#define ARGEXT_ISAS(X)                                                                  \
    ARGEXT_ISA_ROW_BASELINE(X) ARGEXT_ISA_ROW_SSE2(X) ARGEXT_ISA_ROW_SSE42(X)           \
    ARGEXT_ISA_ROW_AVX2(X) ARGEXT_ISA_ROW_AVX512(X) ARGEXT_ISA_ROW_NEON(X)

/* One field of a level's row: ARGEXT_ISA_NAME(AVX2) is the token avx2,
   ARGEXT_ISA_TARGET(AVX2) the string "avx2". */
#define ARGEXT_ISA_FIELD_NAME(ENUM, NAME, RANK, ARCH, TARGET, MSVC) NAME
#define ARGEXT_ISA_FIELD_TARGET(ENUM, NAME, RANK, ARCH, TARGET, MSVC) TARGET
#define ARGEXT_ISA_NAME(ENUM) ARGEXT_ISA_ROW_##ENUM(ARGEXT_ISA_FIELD_NAME)
#define ARGEXT_ISA_TARGET(ENUM) ARGEXT_ISA_ROW_##ENUM(ARGEXT_ISA_FIELD_TARGET)

#endif /* ARGEXT_ISA_LIST_H */
