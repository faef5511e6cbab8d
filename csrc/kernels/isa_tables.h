/*
 * isa_tables.h - the kernel table each ISA level's file defines
 * (argext_kernels_<name>, from isa_list.h). Only the levels of the target
 * architecture are compiled (platform.h's ARGEXT_ON_<arch>); the SIMD levels
 * fall back to the baseline's kernels for layouts they do not vectorise.
 */
#ifndef ARGEXT_ISA_TABLES_H
#define ARGEXT_ISA_TABLES_H

#include "kernels/abi.h"
#include "kernels/isa_list.h"

#define ARGEXT_ISA_TABLE_DECLARE(ENUM, NAME, RANK, ARCH, TARGET, MSVC) \
    extern const argext_kernel_table argext_kernels_##NAME;
ARGEXT_ISAS(ARGEXT_ISA_TABLE_DECLARE)
#undef ARGEXT_ISA_TABLE_DECLARE

#endif /* ARGEXT_ISA_TABLES_H */
