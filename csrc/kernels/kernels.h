/*
 * kernels.h - what the engine uses of the kernel layer: the kernel ABI
 * (abi.h), the operators (ops.h), and the kernel table of the ISA level in
 * use (dispatch.c).
 */
#ifndef ARGEXT_KERNELS_H
#define ARGEXT_KERNELS_H

#include "kernels/abi.h"

/* The table of the ISA level in use. Chosen once, on first use, from the
   CPU and ARGEXT_ISA; argext_set_isa changes it. */
const argext_kernel_table *argext_active_kernels(void);

#endif /* ARGEXT_KERNELS_H */
