/*
 * targets.h - compiling a kernel file for its instruction set.
 *
 * ISA_TARGET_BEGIN(AVX2) ... ISA_TARGET_END: the functions defined in
 * between are compiled for the target of that level's row in isa_list.h,
 * whatever the command line says (GCC and clang), so the build needs no
 * per-file flags and one compile can target several architectures. MSVC
 * compiles any intrinsic; setup.py and CMakeLists.txt give it the row's
 * /arch flag. Headers go before ISA_TARGET_BEGIN.
 */
#ifndef ARGEXT_TARGETS_H
#define ARGEXT_TARGETS_H

#include "kernels/isa_list.h"

#define ARGEXT_PRAGMA(x) _Pragma(#x)
#if defined(__clang__)
#define ARGEXT_TARGET_PUSH(t) \
    ARGEXT_PRAGMA(clang attribute push(__attribute__((target(t))), apply_to = function))
#define ISA_TARGET_END ARGEXT_PRAGMA(clang attribute pop)
#elif defined(__GNUC__)
#define ARGEXT_TARGET_PUSH(t) ARGEXT_PRAGMA(GCC push_options) ARGEXT_PRAGMA(GCC target(t))
#define ISA_TARGET_END ARGEXT_PRAGMA(GCC pop_options)
#else
#define ARGEXT_TARGET_PUSH(t)
#define ISA_TARGET_END
#endif
#define ISA_TARGET_BEGIN(ENUM) ARGEXT_TARGET_PUSH(ARGEXT_ISA_TARGET(ENUM))

#endif /* ARGEXT_TARGETS_H */
