/*
 * kernels.h - the two kernel shapes every ISA provides for every dtype.
 *
 * Keys (see dtypes.h) make ArgMin an ArgMax, so each kernel comes as a
 * "max" and a "min" instance that differ only in the key function. `last`
 * selects the last occurrence by a non-strict update instead of a strict
 * one, never by flipping. Both kernels fold into a running best so that the
 * driver can split a reduction into pieces visited in increasing index
 * order: with init == 0 they start from the best passed in.
 */
#ifndef ARGEXT_KERNELS_H
#define ARGEXT_KERNELS_H

#include <stdint.h>

#include "argext.h"

/*
 * Row kernel: n >= 1 elements at p, byte stride `stride`. Returns the index
 * in the row of the element that becomes the best (and stores its key in
 * *best), or -1 when no element beats the incoming *best.
 */
typedef int64_t (*argext_row_kernel)(const char *p, int64_t n, int64_t stride, int last,
                                     int init, void *best);

/*
 * Column kernel: bn columns (byte stride cs) folded over `rows` rows (byte
 * stride rs) starting at p. Row r has flat index f0 + r * w. best[j] holds
 * column j's key (key type, itemsize bytes each) and idx[j] its flat index;
 * init == 1 makes row 0 their starting value.
 */
typedef void (*argext_cols_kernel)(const char *p, int64_t rows, int64_t rs, int64_t w,
                                   int64_t bn, int64_t cs, int64_t f0, int last, int init,
                                   void *best, int64_t *idx);

/*
 * The column kernel for input of the opposite byte order, read in place:
 * returns 1 when done, or 0, having touched nothing, for a layout it does
 * not read in place (the caller then swaps blocks into scratch).
 */
typedef int (*argext_cols_swapped_kernel)(const char *p, int64_t rows, int64_t rs, int64_t w,
                                          int64_t bn, int64_t cs, int64_t f0, int last, int init,
                                          void *best, int64_t *idx);

/*
 * Many-rows kernel: `count` independent whole rows (row k starts at
 * p + k * ps; n >= 1 elements, byte stride s). Writes each row's best index
 * to idx[k]. It is the row kernel with init == 1 per row, batched so that
 * short rows (1M rows of 16) pay no per-row call or set-up.
 */
typedef void (*argext_rows_kernel)(const char *p, int64_t count, int64_t ps, int64_t n,
                                   int64_t s, int last, int64_t *idx);

/*
 * Swap kernel (byteswap.h): rows x n elements of `itemsize` bytes (byte
 * strides rs, s) of the opposite byte order into dst, C-contiguous in native
 * order. ahead: the byte distance from this block to the one the caller
 * likely swaps next, prefetched meanwhile (a hint: it may lie past the end).
 */
typedef void (*argext_swap_kernel)(unsigned char *dst, const char *src, int64_t rows, int64_t rs,
                                   int64_t n, int64_t s, int itemsize, int64_t ahead);

/* The low 8 bytes of a byte shuffle's control (x86 pshufb) that reverses
   each w-byte element; the high 8 are these plus 8 in every byte. */
#define ARGEXT_BSWAP_SHUFFLE_LO(w)                     \
    ((w) == 2   ? INT64_C(0x0607040502030001)          \
     : (w) == 4 ? INT64_C(0x0405060700010203)          \
                : INT64_C(0x0001020304050607))
#define ARGEXT_BSWAP_SHUFFLE_HI(w) (ARGEXT_BSWAP_SHUFFLE_LO(w) + INT64_C(0x0808080808080808))

/* Vector helpers of the per-ISA files: always inlined into the kernels. */
#if defined(_MSC_VER) && !defined(__clang__)
#define VINLINE static __forceinline
#else
#define VINLINE static inline __attribute__((always_inline))
#endif

/* The operators, as keys see them (dtypes.h): NaN is the top key of MAX and
   MIN (it wins); NANMAX and NANMIN count it as -inf and +inf (NumPy's
   nanargmax and nanargmin). */
enum { ARGEXT_OP_MAX = 0, ARGEXT_OP_MIN = 1, ARGEXT_OP_NANMAX = 2, ARGEXT_OP_NANMIN = 3,
       ARGEXT_OP_COUNT = 4 };
#define ARGEXT_OP_IS_MIN(op) ((op) & 1)
#define ARGEXT_OP_SKIPS_NAN(op) ((op) >= ARGEXT_OP_NANMAX)

typedef struct argext_kernel_table {
    argext_row_kernel row[ARGEXT_OP_COUNT][ARGEXT_DTYPE_COUNT];
    /* The row kernel for input of the opposite byte order (itemsize > 1). */
    argext_row_kernel row_swapped[ARGEXT_OP_COUNT][ARGEXT_DTYPE_COUNT];
    argext_cols_kernel cols[ARGEXT_OP_COUNT][ARGEXT_DTYPE_COUNT];
    argext_cols_swapped_kernel cols_swapped[ARGEXT_OP_COUNT][ARGEXT_DTYPE_COUNT];
    argext_rows_kernel rows[ARGEXT_OP_COUNT][ARGEXT_DTYPE_COUNT];
    argext_swap_kernel swap;
} argext_kernel_table;

/* The table of the ISA level in use (dispatch.c). Chosen once, on first
   use, from the CPU and ARGEXT_ISA; argext_set_isa changes it. */
const argext_kernel_table *argext_active_kernels(void);

extern const argext_kernel_table argext_kernels_baseline;
/* Each ISA's kernels fall back to the baseline ones for layouts they do not
   vectorise (strided rows, rows shorter than a vector). x86-64: */
extern const argext_kernel_table argext_kernels_sse2;
extern const argext_kernel_table argext_kernels_sse42;
extern const argext_kernel_table argext_kernels_avx2;
extern const argext_kernel_table argext_kernels_avx512;
/* AArch64: */
extern const argext_kernel_table argext_kernels_neon;

/* The target, not the host: these follow the compiler's own target macros,
   so cross compiles and one-pass multi-architecture compiles (macOS
   universal2) pick the right files. MSVC's ARM64EC also defines _M_X64 but
   runs ARM code: it gets the baseline only. */
#if (defined(__x86_64__) || defined(_M_X64) || defined(__amd64__)) && !defined(_M_ARM64EC)
#define ARGEXT_X86_64 1
#elif defined(__aarch64__) || defined(_M_ARM64)
#define ARGEXT_AARCH64 1
#endif

/* ISA_TARGET_BEGIN("avx2") ... ISA_TARGET_END: the functions defined in
   between are compiled for that instruction set, whatever the command line
   says (GCC and clang; MSVC compiles any intrinsic, and setup.py and
   CMakeLists.txt give it /arch for the AVX files). Headers go before. */
#define ARGEXT_PRAGMA(x) _Pragma(#x)
#if defined(__clang__)
#define ISA_TARGET_BEGIN(t) \
    ARGEXT_PRAGMA(clang attribute push(__attribute__((target(t))), apply_to = function))
#define ISA_TARGET_END ARGEXT_PRAGMA(clang attribute pop)
#elif defined(__GNUC__)
#define ISA_TARGET_BEGIN(t) ARGEXT_PRAGMA(GCC push_options) ARGEXT_PRAGMA(GCC target(t))
#define ISA_TARGET_END ARGEXT_PRAGMA(GCC pop_options)
#else
#define ISA_TARGET_BEGIN(t)
#define ISA_TARGET_END
#endif

#endif /* ARGEXT_KERNELS_H */
